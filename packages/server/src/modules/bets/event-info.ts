import type { SportEvent } from '@bookie/contracts';
import type { EventInfo } from './bet.js';

/** The facts of a sport event a selection carries into callbacks, captured when the bet is recorded. */
export function eventInfo(event: SportEvent, marketId: string): EventInfo {
  const competitors = Object.values(event.fixture.competitors)
    .sort((a, b) => a.home_away - b.home_away)
    .map((c) => ({ id: c.id, type: (c.type === 1 ? 1 : 2) as 1 | 2 }));
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
