import { formatFeedOddValue, mul, parseDecimal } from '@bookie/core';
import { dbNow } from '../../db/database.js';
import type { Executor } from '../../db/transaction.js';
import { isBonusId, reserveBoost, reserveFreebet } from './bonuses.repo.js';

/** The bet being created, as the reservation needs it. */
export interface ReserveBonusesInput {
  betId: string;
  whiteLabelId: string;
  playerId: string;
  freebetId: string | null;
  boostId: string | null;
  /** The bet's total odds before any boost (12 decimals, as stored). */
  baseOdds: string;
  now: Date;
}

/**
 * Placement hook, in the transaction that creates the bet in `hold_requested` (spec 01 "Freebet": available →
 * reserved when the bet is placed; docs/adr/0009-bonuses.md):
 * - the freebet: available → reserved for this bet, by one atomic conditional update (of two bets placed at once
 *   with one freebet exactly one reserves it; the other is declined with `freebet_status` at validation);
 * - the boost: one unit of remaining_quantity taken (atomic, never below 0) and the bet's `boost_multiplier` and
 *   boosted `total_odds` (= base × multiplier, 12 decimals) written, so `/bet/place` already carries them (D19).
 * Nothing is reserved when the ids are unknown, someone else's, expired or used up: validation declines the bet.
 */
export async function reserveBonuses(tx: Executor, input: ReserveBonusesInput): Promise<void> {
  const who = {
    whiteLabelId: input.whiteLabelId,
    playerId: input.playerId,
    betId: input.betId,
    now: input.now,
  };
  if (isBonusId(input.freebetId)) await reserveFreebet(tx, { id: input.freebetId, ...who });
  if (isBonusId(input.boostId)) {
    const multiplier = await reserveBoost(tx, { id: input.boostId, ...who });
    if (multiplier !== undefined) {
      const base = parseDecimal(input.baseOdds, { field: 'base_odds', maxDecimals: 12 });
      const m = parseDecimal(multiplier, { field: 'multiplier', maxDecimals: 6 });
      await tx
        .updateTable('bet')
        .set({
          boost_multiplier: multiplier,
          total_odds: formatFeedOddValue(mul(base, m)),
          updated_at: dbNow,
        })
        .where('id', '=', input.betId)
        .execute();
    }
  }
}
