import type { FramePlayerBonus } from '@bookie/contracts';
import type { FrameState, SlipSelection } from './state.js';

/**
 * The bodies of `POST /frame-api/bets` that place the slip: one single per selection, or one express or system bet;
 * each with its own client key, the slip's stake (a decimal comma read as a point), odds strategy and bonus.
 */
export function betRequests(
  slip: FrameState['slip'],
  currency: string,
  bonus: FramePlayerBonus | undefined,
): Record<string, unknown>[] {
  const common = {
    stake: slip.stake.trim().replace(',', '.'),
    currency,
    odds_strategy: slip.strategy,
    ...(bonus?.kind === 'freebet' ? { freebet_id: bonus.id } : {}),
    ...(bonus?.kind === 'insurance' ? { insurance_id: bonus.id } : {}),
    ...(bonus?.kind === 'boost' ? { boost_id: bonus.id } : {}),
  };
  const selection = (s: SlipSelection) => ({
    sport_event_id: s.sportEventId,
    market_id: s.marketId,
    odd_id: s.oddId,
    odds: s.odds,
  });
  const key = () => crypto.randomUUID();
  return slip.type === 'single'
    ? slip.selections.map((s) => ({
        ...common,
        bet_type: 'single',
        selections: [selection(s)],
        client_key: key(),
      }))
    : [
        {
          ...common,
          bet_type: slip.type,
          selections: slip.selections.map(selection),
          ...(slip.type === 'system' ? { system_sizes: slip.sizes } : {}),
          client_key: key(),
        },
      ];
}

/**
 * The query of `GET /frame-api/restrictions` that asks the largest stake the slip can place: its type code, currency,
 * odds strategy, system sizes and selections; `undefined` when the slip is no bet yet (empty, several singles, a
 * combination of one, a system without sizes).
 */
export function maxBetQuery(slip: FrameState['slip'], currency: string): URLSearchParams | undefined {
  const n = slip.selections.length;
  const type = slip.type === 'single' ? (n === 1 ? '0' : undefined) : slip.type === 'express' ? '1' : '2';
  if (n === 0 || type === undefined || (type !== '0' && n < 2) || (type === '2' && slip.sizes.length === 0))
    return undefined;
  const q = new URLSearchParams({
    type_code: type,
    currency_code: currency,
    odds_strategy: String(slip.strategy),
  });
  if (type === '2') q.set('system_sizes', slip.sizes.join(','));
  for (const x of slip.selections)
    q.append('selection', [x.sportEventId, x.marketId, x.oddId, x.odds].map(encodeURIComponent).join('/'));
  return q;
}
