import { max, parseDecimal, type Rational, sub, ZERO } from '@bookie/core';
import type { BetRow } from '../bets/bet.js';

/**
 * The stake a bet is settled on: its stake minus every part already cashed out. Today that is the sum of the
 * partner's accepted foreign cash-out orders of an MTS bet (`foreign_cashed_out`, kept by `PATCH /bets/{bet_id}`);
 * Bookie's own partial cash-outs subtract here too. Never below 0. Exact (6 decimals).
 */
export function remainingStake(row: Pick<BetRow, 'stake' | 'foreign_cashed_out'>): Rational {
  const stake = parseDecimal(row.stake, { field: 'stake', maxDecimals: 12 });
  const foreign = parseDecimal(row.foreign_cashed_out ?? '0', {
    field: 'foreign_cashed_out',
    maxDecimals: 12,
  });
  return max(ZERO, sub(stake, foreign));
}
