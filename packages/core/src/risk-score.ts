/**
 * Player risk score (the risk rule; docs/adr/0018-risk-engine.md): from the closing-line value of the player's
 * settled bets — how often and by how much the odds taken beat the last odds before the event started — shrunk
 * towards 0.5 for players with few bets.
 *
 * @packageDocumentation
 */
import {
  add,
  compare,
  div,
  fromInteger,
  max,
  min,
  mul,
  ONE,
  type Rational,
  rational,
  sub,
  ZERO,
} from './decimal.js';

/** Bets worth of prior at 0.5 that a player's score is shrunk with (K in (Σ v + K / 2) / (n + K)). */
export const RISK_SCORE_PRIOR_BETS = 10;
/** How much one unit of relative closing-line value moves a bet's value: v = 1/2 + 5 × (taken / closing − 1). */
export const CLV_SCALE = 5n;

/**
 * The value of one settled leg in [0, 1]: 1/2 + 5 × (taken / closing − 1), clamped. Odds 10 % above the close score
 * 1, at the close 1/2, 10 % below 0.
 */
export function closingLineValue(taken: Rational, closing: Rational): Rational {
  if (compare(closing, ZERO) <= 0) return rational(1n, 2n);
  const v = add(rational(1n, 2n), mul(fromInteger(CLV_SCALE), sub(div(taken, closing), ONE)));
  return max(ZERO, min(ONE, v));
}

/**
 * The score in [0, 1]: (Σ v + K / 2) / (n + K) with K = {@link RISK_SCORE_PRIOR_BETS}, where Σ v sums
 * {@link closingLineValue} over the player's `n` settled legs with a closing price. No bets: 0.5.
 */
export function riskScore(clvSum: Rational, count: number): Rational {
  const k = fromInteger(RISK_SCORE_PRIOR_BETS);
  return div(add(clvSum, div(k, fromInteger(2))), add(fromInteger(count), k));
}
