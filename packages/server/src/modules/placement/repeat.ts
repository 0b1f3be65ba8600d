import type { BetView, PlaceBetRequest } from '@bookie/contracts';
import { DomainError, eq, parseDecimal } from '@bookie/core';
import type { PlayerSession } from '../../http/auth.js';
import type { Bet } from '../bets/index.js';
import { loadBets, toBetView } from '../bets/index.js';
import type { PlacementRequest } from '../decision/index.js';
import type { PlacementDeps } from './deps.js';

/** The bet this player already placed with the request's `client_key` (undefined: none, or no key). */
export async function placedWithKey(
  deps: Pick<PlacementDeps, 'database' | 'writes'>,
  session: PlayerSession,
  clientKey: string | undefined,
): Promise<Bet | undefined> {
  if (!clientKey) return undefined;
  const id = await deps.writes.findByClientKey({
    whiteLabelId: session.whiteLabelId,
    playerId: session.playerId,
    clientKey,
  });
  return id ? ((await loadBets(deps.database.db, [id]))[0] as Bet) : undefined;
}

/**
 * A repeat of a `client_key` answers the bet it placed when it asks for the same bet — type, sizes, stake, currency,
 * odds strategy, bonuses, selections and bet builders (their legs) with their requested odds (exact values, so `"1.50"` repeats `"1.5"`);
 * another request under the same key is refused (the rule of DECISIONS D29).
 *
 * @throws DomainError idempotency_conflict (409) naming `client_key`.
 */
export function sameRequest(stored: Bet, req: PlacementRequest, body: PlaceBetRequest): BetView {
  const bet = stored.row;
  const exact = (s: string, field: string) => parseDecimal(String(s), { field, maxDecimals: 12 });
  const same =
    bet.bet_type === req.betType &&
    JSON.stringify(bet.system_sizes ?? []) === JSON.stringify(req.systemSizes) &&
    req.stake !== undefined &&
    eq(exact(bet.stake, 'stake'), req.stake) &&
    bet.currency === req.currency &&
    bet.odds_strategy === req.oddsStrategy &&
    (bet.freebet_id ?? null) === (body.freebet_id ?? null) &&
    (bet.insurance_id ?? null) === (body.insurance_id ?? null) &&
    (bet.boost_id ?? null) === (body.boost_id ?? null) &&
    stored.selections.length === req.selections.length &&
    req.selections.every((s, i) => {
      const b = stored.selections[i];
      return (
        b !== undefined &&
        b.sport_event_id === s.sport_event_id &&
        b.market_id === s.market_id &&
        b.odd_id === s.odd_id &&
        eq(exact(b.requested_odds, 'odds'), s.odds)
      );
    }) &&
    stored.builders.length === (req.builders ?? []).length &&
    (req.builders ?? []).every((r, i) => {
      const b = stored.builders[i];
      return (
        b !== undefined &&
        b.row.sport_event_id === r.sport_event_id &&
        eq(exact(b.row.requested_odds, 'odds'), r.odds) &&
        b.legs.length === r.legs.length &&
        r.legs.every((l, j) => b.legs[j]?.market_id === l.market_id && b.legs[j]?.odd_id === l.odd_id)
      );
    });
  if (!same) {
    throw new DomainError(
      'idempotency_conflict',
      `client_key: ${body.client_key} was already used for another bet request`,
      { field: 'client_key', bet_id: bet.id },
    );
  }
  return toBetView(stored);
}

/** The answer to a repeated `client_key`: the bet it placed (undefined: the key is new). */
export async function repeatOf(
  deps: Pick<PlacementDeps, 'database' | 'writes'>,
  session: PlayerSession,
  req: PlacementRequest,
  body: PlaceBetRequest,
): Promise<BetView | undefined> {
  const stored = await placedWithKey(deps, session, body.client_key);
  return stored ? sameRequest(stored, req, body) : undefined;
}
