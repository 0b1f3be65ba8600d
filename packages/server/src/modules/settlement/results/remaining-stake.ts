import { max, parseDecimal, type Rational, sub, ZERO } from '@bookie/core';
import type { BetRow } from '../../bets/index.js';

/**
 * The stake a bet is settled (and valued for cash-out) on: its stake minus every part already cashed out — the
 * platform's own accepted cash-out orders (`cashed_out_stake`) and the partner's accepted foreign cash-out orders of
 * a reported bet (`foreign_cashed_out`, kept by `PATCH /bets/{bet_id}`). A partial cash-out leaves the rest of the
 * stake in play; 0 once the bet is fully cashed out, never below. Exact (6 decimals).
 */
export function remainingStake(
  row: Pick<BetRow, 'stake'> & Partial<Pick<BetRow, 'foreign_cashed_out' | 'cashed_out_stake'>>,
): Rational {
  const stake = parseDecimal(row.stake, { field: 'stake', maxDecimals: 12 });
  const foreign = parseDecimal(row.foreign_cashed_out ?? '0', {
    field: 'foreign_cashed_out',
    maxDecimals: 12,
  });
  const cashed = parseDecimal(row.cashed_out_stake ?? '0', { field: 'cashed_out_stake', maxDecimals: 12 });
  return max(ZERO, sub(sub(stake, foreign), cashed));
}
