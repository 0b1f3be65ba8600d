/**
 * Exposure (liability) of a bet, apportioned over its legs (the risk rule; docs/adr/0018-risk-engine.md).
 *
 * A bet's potential win (potential payout − stake) is shared among its legs in proportion to ln(leg odds): for an
 * express Σ ln(leg odds) = ln(total odds), which is exactly the risk rule's ln(leg odds) / ln(total odds); a single puts all of
 * it on its one leg. The logarithm is irrational, so it is computed in fixed point: ln(x) × 10^{@link LN_DIGITS},
 * truncated towards zero, from bigint arithmetic only ({@link lnFixed}). The weights are then the exact rationals
 * L_i / Σ L_j of those integers, and amounts are rounded once, by {@link apportion} (largest remainder), so the
 * legs of a bet always add up to its rounded potential win exactly.
 *
 * @packageDocumentation
 */
import { BoundedMemo } from './bounded-memo.js';
import {
  compare,
  div,
  formatMoney,
  mul,
  ONE,
  type Rational,
  rational,
  roundHalfUp,
  sub,
  ZERO,
} from './decimal.js';

/** Decimal digits of the fixed-point logarithm {@link lnFixed} (the result is ln(x) × 10^LN_DIGITS). */
export const LN_DIGITS = 40;
const GUARD_DIGITS = 12;
const WORK = 10n ** BigInt(LN_DIGITS + GUARD_DIGITS);
const GUARD = 10n ** BigInt(GUARD_DIGITS);

/** 2·atanh(p/q) × WORK, truncated, for 0 ≤ p/q < 1 (series Σ z^(2n+1)/(2n+1)). */
function twoAtanh(p: bigint, q: bigint): bigint {
  const z = (p * WORK) / q;
  const z2 = (z * z) / WORK;
  let term = z;
  let sum = 0n;
  for (let n = 1n; term !== 0n; n += 2n) {
    sum += term / n;
    term = (term * z2) / WORK;
  }
  return 2n * sum;
}

let ln2Work: bigint | undefined;
function ln2(): bigint {
  ln2Work ??= twoAtanh(1n, 3n); // ln 2 = 2·atanh(1/3)
  return ln2Work;
}

/**
 * ln(x) in fixed point: ⌊ln(x) × 10^{@link LN_DIGITS}⌋ (truncated), for a rational x ≥ 1 (decimal odds). Computed with
 * bigints only: x = 2^k · y with y in [1, 2), ln y = 2·atanh((y − 1)/(y + 1)), 12 guard digits. Deterministic: the
 * same x always gives the same integer on every platform.
 *
 * @throws RangeError when x < 1 (odds below 1 are refused long before this point).
 */
export function lnFixed(x: Rational): bigint {
  if (x.num < x.den) throw new RangeError('lnFixed: x must be at least 1');
  // the same value object (a feed odd parsed once, the odds a decision accepted) is found without writing its key
  const same = lnByValue.get(x);
  if (same !== undefined) return same;
  const key = `${x.num}/${x.den}`;
  const out = lnMemo.get(key) ?? lnMemo.keep(key, lnFixedUncached(x));
  lnByValue.set(x, out);
  return out;
}

/** Odds repeat (a book has few distinct prices): the logarithms already computed, by exact value. */
const lnMemo = new BoundedMemo<bigint>(10_000);
/** The same, by value object (values are frozen, so an object's logarithm never changes). */
const lnByValue = new WeakMap<Rational, bigint>();

function lnFixedUncached(x: Rational): bigint {
  let k = 0n;
  let den = x.den;
  while (x.num >= 2n * den) {
    den *= 2n;
    k += 1n;
  }
  const work = k * ln2() + twoAtanh(x.num - den, x.num + den);
  return work / GUARD;
}

/**
 * The share of a bet's potential win that each leg carries (the risk rule): ln(o_i) / Σ_j ln(o_j) from {@link lnFixed}, as
 * exact rationals that add up to 1. When every leg has odds 1 (no win at all) the legs share equally.
 *
 * @param odds - the odds of every leg, platform and foreign (the MTS and advisory contract's mixed combos: a foreign leg takes its share,
 * which is then carried by no platform outcome).
 */
export function legWeights(odds: readonly Rational[]): Rational[] {
  const { parts, total } = weightParts(odds);
  return parts.map((l) => weightOf(l, total));
}

/** The weight of a bet's only leg: all of it. */
const SOLE: { parts: bigint[]; total: bigint } = Object.freeze({
  parts: Object.freeze([1n]) as bigint[],
  total: 1n,
});

/** The weights as integer parts over one total (L_i and Σ L_j; all 1 over n when every leg has odds 1). */
function weightParts(odds: readonly Rational[]): { parts: bigint[]; total: bigint } {
  // one leg carries everything, whatever its odds: no logarithm
  if (odds.length === 1) return SOLE;
  const logs = odds.map(lnFixed);
  const total = logs.reduce((a, b) => a + b, 0n);
  if (total === 0n) return { parts: odds.map(() => 1n), total: BigInt(odds.length) };
  return { parts: logs, total };
}

/** Splits `micros` whole micro-units in proportion to parts / total by the largest remainder (ties: lower index). */
function splitMicros(micros: bigint, parts: readonly bigint[], total: bigint): bigint[] {
  const floors = parts.map((p) => (p * micros) / total);
  const rems = parts.map((p) => (p * micros) % total);
  let left = micros - floors.reduce((a, b) => a + b, 0n);
  const order = rems.map((r, i) => ({ r, i })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of order) {
    if (left <= 0n) break;
    floors[i] = (floors[i] as bigint) + 1n;
    left -= 1n;
  }
  return floors;
}

/**
 * Splits `amount` (at most 6 decimals) among shares proportional to `weights` (non-negative, summing to 1), in whole
 * micro-units (6 decimals), by the largest remainder: each share is first truncated, then the micro-units left over
 * go one each to the largest remainders, ties to the lower index. The parts add up to `amount` exactly.
 *
 * @throws RangeError when `amount` has more than 6 decimals or is negative.
 */
export function apportion(amount: Rational, weights: readonly Rational[]): Rational[] {
  const micros = mul(amount, rational(1_000_000n));
  if (micros.den !== 1n || micros.num < 0n)
    throw new RangeError('apportion: amount must be ≥ 0 with 6 decimals');
  const total = micros.num;
  const exact = weights.map((w) => mul(w, rational(total)));
  const floors = exact.map((e) => e.num / e.den);
  let left = total - floors.reduce((a, b) => a + b, 0n);
  const order = exact
    .map((e, i) => ({ i, rem: sub(e, rational(floors[i] as bigint)) }))
    .sort((a, b) => compare(b.rem, a.rem) || a.i - b.i);
  const out = [...floors];
  for (const { i } of order) {
    if (left <= 0n) break;
    out[i] = (out[i] as bigint) + 1n;
    left -= 1n;
  }
  return out.map((m) => rational(m, 1_000_000n));
}

/** Input of {@link betExposure}: an accepted bet as risk sees it. */
export interface BetExposureInput {
  /** Stake in the bet currency (6 decimals). */
  stake: Rational;
  /** Potential payout per unit of stake with every leg winning (the accepted total odds, boost included). */
  totalOdds: Rational;
  /** The odds of every leg, in bet order; foreign legs (MTS mixed combos) included. */
  legOdds: readonly Rational[];
  /** Units of the bet currency per EUR (`EUR_RATES`; 1 for EUR). */
  eurRate: Rational;
}

/**
 * The potential win of a bet in EUR, rounded half-up to 6 decimals: max(0, stake × total odds − stake) / rate (the risk rule).
 */
export function potentialWinEur(input: Pick<BetExposureInput, 'stake' | 'totalOdds' | 'eurRate'>): Rational {
  const win = mul(input.stake, sub(input.totalOdds, ONE));
  if (compare(win, ZERO) <= 0) return ZERO;
  return roundHalfUp(div(win, input.eurRate), 6);
}

/**
 * The exposure each leg of a bet adds to its outcome, in EUR with 6 decimals (the risk rule): the potential win in EUR
 * ({@link potentialWinEur}) apportioned by {@link legWeights} with {@link apportion}. Parts add up to the potential
 * win exactly; a single carries all of it.
 */
export function betExposure(input: BetExposureInput): Rational[] {
  const win = potentialWinEur(input);
  const micros = (win.num * 1_000_000n) / win.den; // exact: the win has 6 decimals
  const { parts, total } = weightParts(input.legOdds);
  return splitMicros(micros, parts, total).map((m) => rational(m, 1_000_000n));
}

/**
 * The potential win in EUR that one unit of stake adds to each leg before rounding: (total odds − 1) × weight / rate
 * (the risk rule's "apportioned win per unit of stake").
 */
export function winPerUnitStakeEur(
  input: Pick<BetExposureInput, 'totalOdds' | 'legOdds' | 'eurRate'>,
): Rational[] {
  const winPerUnit = sub(input.totalOdds, ONE);
  if (compare(winPerUnit, ZERO) <= 0) return input.legOdds.map(() => ZERO);
  const { parts, total } = weightParts(input.legOdds);
  // (T − 1) / rate × L_i / Σ L; a single leg (L_i = Σ L) bears it all without a gcd of the large fixed-point logs
  const perRate = div(winPerUnit, input.eurRate);
  return parts.map((l) => (l === total ? perRate : mul(perRate, weightOf(l, total))));
}

/**
 * The weight `l / total` of a leg, normalized: the gcd of two fixed-point logarithms (~50 digits) is the dearest step
 * of a combination's exposure, and a book's few prices give the same pairs again, so the weights are kept by value.
 */
function weightOf(l: bigint, total: bigint): Rational {
  const key = `${l}/${total}`;
  return weightMemo.get(key) ?? weightMemo.keep(key, rational(l, total));
}

const weightMemo = new BoundedMemo<Rational>(10_000);

/** Writes an exposure amount (EUR, 6 decimals). */
export function formatExposure(x: Rational): string {
  return formatMoney(x);
}
