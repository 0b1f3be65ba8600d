import type { SportEvent } from '@bookie/contracts';
import type { EventInfo } from './bet.js';

/** The facts of a sport event a selection carries into callbacks, captured when the bet is recorded. */
export function eventInfo(event: SportEvent, marketId: string): EventInfo {
  const all = Object.values(event.fixture.competitors);
  // two competitors (home and away) are put in order without a sort, which allocates its own work space
  if (all.length === 2) {
    const [a, b] = all as [(typeof all)[number], (typeof all)[number]];
    if (b.home_away < a.home_away) {
      all[0] = b;
      all[1] = a;
    }
  } else all.sort((a, b) => a.home_away - b.home_away);
  const competitors = all.map((c) => ({ id: c.id, type: (c.type === 1 ? 1 : 2) as 1 | 2 }));
  return {
    provider_id: event.sources?.[0]?.id ?? 'bookie',
    sport_id: event.fixture.sport_id,
    tournament_id: event.fixture.tournament.id,
    market_type: String(event.markets[marketId]?.type_id ?? ''),
    state: event.fixture.status === 1 ? 'live' : 'prematch',
    start_time: event.fixture.start_time,
    competitors,
  };
}
