import { parseDecimal, type Rational, sub } from '@bookie/core';

/**
 * The stake settlement pays on: the bet's stake less the part its accepted cash-out orders took (spec 03 "Cash out
 * rules": a partial cash-out leaves the rest of the stake in play). Exact; 0 once the bet is fully cashed out.
 */
export function remainingStakeOf(row: { stake: string; cashed_out_stake?: string | null }): Rational {
  const stake = parseDecimal(row.stake, { field: 'stake', maxDecimals: 12 });
  const cashed = parseDecimal(row.cashed_out_stake ?? '0', { field: 'cashed_out_stake', maxDecimals: 12 });
  return sub(stake, cashed);
}

/**
 * Whether the partner is paid for this bet's cash-outs through the cash-out callbacks: the platform's own bets
 * (placed in the frame). Bets the partner reports itself take their money through the partner's own flow.
 */
export function paysThroughCallbacks(_row: { id: string }): boolean {
  // every bet the platform stores so far was placed in the frame
  return true;
}
