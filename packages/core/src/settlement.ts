/**
 * Settlement arithmetic: leg factors, single/express/system payouts, the express cap, boost, freebet credit,
 * rounding and `settle_type` (the callback contract, "Bet types" and "Limits", the settle type rule, the odd statuses in callbacks rule, the rules in docs/decisions.md).
 *
 * Everything is computed exactly on rationals, capped, then rounded once half-up to 3 decimals (the exact, then rounded once rule).
 * See docs/adr/0003-core-arithmetic.md for the choices the decisions leave open (boost on systems, the white-label
 * max payout, rounding under a cap).
 *
 * @packageDocumentation
 */
import { assertBetShape, type BetType, combinationCount } from './bet-types.js';
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
  roundDown,
  roundHalfUp,
  sub,
  ZERO,
} from './decimal.js';
import { DomainError, validationError } from './errors.js';
import {
  isOddStatus,
  isVoidStatus,
  ODD_STATUS,
  type OddStatus,
  SETTLE_TYPE,
  type SettleType,
} from './statuses.js';

/** A leg as settlement sees it: its odds, its odd status and an optional dead-heat factor. */
export interface SettlementLeg {
  /** Decimal odds of the leg at placement (≥ 1). */
  odds: Rational;
  /** Odd status 0–7 (the feed contract, "Odd status", the odd statuses in callbacks rule). 0 = not resulted: settlement is not possible. */
  status: OddStatus;
  /** Dead-heat factor h in (0, 1] on a win: the leg's factor becomes d·h (the leg factors rule). */
  deadHeat?: Rational;
}

/** Payouts are rounded to this many decimals (the exact, then rounded once rule) and written with 6. */
export const PAYOUT_DECIMALS = 3;

/** The express cap in EUR: the gross payout of an express or of a system combination (the callback contract, "Limits", the express cap rule). */
export const EXPRESS_CAP_EUR: Rational = rational(50_000n);

/**
 * The express cap in the bet's currency (the express cap rule): 50,000 EUR × the configured rate.
 *
 * @param eurRate - units of the bet currency per 1 EUR (exact; 1 for EUR bets), positive.
 * @throws DomainError `validation_error` (field `eur_rate`) when the rate is not positive.
 */
export function expressCapInCurrency(eurRate: Rational): Rational {
  if (eurRate.num <= 0n) throw validationError('eur_rate', 'must be positive');
  return mul(EXPRESS_CAP_EUR, eurRate);
}

/**
 * The factor of one leg (the leg factors rule): win d (d·h under dead heat), loss 0, half win (d+1)/2, half loss 1/2,
 * refunded / cancelled / refunded manually 1.
 *
 * @param field - field path for errors (default `leg`).
 * @throws DomainError `not_resulted` (details.field) for status 0; `validation_error` for a status outside 0–7 or a
 * dead-heat factor outside (0, 1] or on a leg that did not win.
 */
export function legFactor(leg: SettlementLeg, field = 'leg'): Rational {
  const { odds, status, deadHeat } = leg;
  if (!isOddStatus(status))
    throw validationError(`${field}.status`, `must be an odd status 0–7, got ${String(status)}`);
  if (deadHeat !== undefined) {
    if (status !== ODD_STATUS.WIN)
      throw validationError(`${field}.dead_heat`, 'applies only to a win (status 1)');
    if (deadHeat.num <= 0n || compare(deadHeat, ONE) > 0) {
      throw validationError(`${field}.dead_heat`, 'must be a factor greater than 0 and at most 1');
    }
  }
  switch (status) {
    case ODD_STATUS.NOT_RESULTED:
      throw new DomainError(
        'not_resulted',
        `${field}.status: not resulted (odd status 0); the bet cannot be settled yet`,
        {
          field: `${field}.status`,
        },
      );
    case ODD_STATUS.WIN:
      return deadHeat ? mul(odds, deadHeat) : odds;
    case ODD_STATUS.LOSS:
      return ZERO;
    case ODD_STATUS.HALF_WIN:
      return div(add(odds, ONE), rational(2n));
    case ODD_STATUS.HALF_LOSS:
      return rational(1n, 2n);
    default:
      return ONE; // 5 refunded, 6 cancelled, 7 refunded manually
  }
}

/** True when every leg is resulted (no odd status 0), i.e. the bet can be settled. */
export function isResulted(legs: readonly SettlementLeg[]): boolean {
  return legs.every((l) => l.status !== ODD_STATUS.NOT_RESULTED);
}

/** True when every leg is void (5, 6 or 7): the bet pays back exactly its stake (the exact, then rounded once rule, the boosted odds rule). */
export function isVoided(legs: readonly SettlementLeg[]): boolean {
  return legs.length > 0 && legs.every((l) => isVoidStatus(l.status));
}

/** A bet boost (the boosted odds rule): a multiplier ≥ 1 on the total odds. */
export interface Boost {
  /** Multiplier on the total odds, ≥ 1 (e.g. 1.1 for a 10 % odds boost). */
  multiplier: Rational;
}

/**
 * The total odds of a bet (the callback contract, "Bet types"): the product of the selections' odds, times the boost multiplier
 * when one applies (`total_odds_value`; without boost it is `base_odds_value`). Exact; write it with 6 decimals.
 */
export function totalOdds(odds: readonly Rational[], boost?: Boost): Rational {
  const base = odds.reduce(mul, ONE);
  return boost ? mul(base, boost.multiplier) : base;
}

/**
 * Applies a boost to the combined factor F of an express (or of one system combination): F × multiplier when the
 * express wins something beyond the stake (F > 1), F unchanged otherwise, so a boost never turns a loss, a half loss
 * or a refund into a win (the boosted odds rule; docs/adr/0003-core-arithmetic.md).
 */
export function boostFactor(factor: Rational, boost?: Boost): Rational {
  if (!boost || compare(factor, ONE) <= 0) return factor;
  return mul(factor, boost.multiplier);
}

/** Input of {@link settleBet}. */
export interface SettleBetInput {
  /** Bet type. */
  betType: BetType;
  /** Stake S (bet currency, exact, > 0). For a freebet bet, the freebet's stake. */
  stake: Rational;
  /** Legs in bet order; every one resulted (status ≠ 0). */
  legs: readonly SettlementLeg[];
  /** System sizes (system only), distinct integers in 2..n. */
  systemSizes?: readonly number[];
  /** Cap on the gross payout of an express and of each system combination, in the bet currency (the express cap rule); see
   * {@link expressCapInCurrency} and {@link EXPRESS_CAP_EUR}. */
  expressCap: Rational;
  /** Optional white-label max payout (bet currency): caps the gross payout of the whole bet, any type (the express cap rule). */
  maxPayout?: Rational;
  /** Optional boost (the boosted odds rule). */
  boost?: Boost;
  /** Freebet amount when the bet was placed with a freebet (the freebet payout rule). */
  freebetAmount?: Rational;
}

/** Result of {@link settleBet}. All amounts exact rationals in the bet currency; write them with 6 decimals. */
export interface BetSettlement {
  /** Gross payout (stake included), capped and rounded half-up to 3 decimals (the exact, then rounded once rule, the express cap rule); exactly the stake when the
   * bet is voided. */
  payout: Rational;
  /** Amount of the `/bet/settle` callback: the freebet credit for a freebet bet (the freebet payout rule), otherwise the payout. */
  settleAmount: Rational;
  /** `settle_type` (the settle type rule): payout vs stake, or vs the freebet amount for a freebet bet. */
  settleType: SettleType;
  /** True when every leg is void (5, 6, 7): the stake is returned without boost (the exact, then rounded once rule, the boosted odds rule). */
  voided: boolean;
  /** True when a cap (express cap or white-label max payout) lowered the payout. */
  capped: boolean;
}

/**
 * Gross payout of one express (or system combination) of stake `stake`: stake × boosted Π f, capped at `cap`.
 * Exact; not rounded.
 */
function expressGross(
  stake: Rational,
  factors: readonly Rational[],
  cap: Rational | undefined,
  boost?: Boost,
) {
  const value = mul(stake, boostFactor(factors.reduce(mul, ONE), boost));
  if (cap && compare(value, cap) > 0) return { value: cap, capped: true };
  return { value, capped: false };
}

/**
 * The exact (unrounded) gross payout of a bet and whether a cap bound it (the leg factors rule, the express cap rule, the boosted odds rule):
 * single S·f (boosted); express min(S·Πf (boosted), cap); system Σ over the N combinations of
 * min((S/N)·Πf (boosted), cap); then the white-label max payout on the whole. Voided bets are not special-cased here.
 *
 * @throws DomainError `validation_error` for a bad shape (leg count, system sizes), `not_resulted` for a leg with
 * status 0.
 */
export function exactPayout(input: SettleBetInput): { value: Rational; capped: boolean } {
  const { betType, stake, legs, expressCap, boost } = input;
  assertBetShape(betType, legs.length, input.systemSizes);
  const factors = legs.map((leg, i) => legFactor(leg, `legs[${i}]`));
  let result: { value: Rational; capped: boolean };
  if (betType === 'single') result = expressGross(stake, factors, undefined, boost);
  else if (betType === 'express') result = expressGross(stake, factors, expressCap, boost);
  else result = systemGross(stake, factors, input.systemSizes ?? [], expressCap, boost);
  if (input.maxPayout && compare(result.value, input.maxPayout) > 0)
    return { value: input.maxPayout, capped: true };
  return result;
}

function systemGross(
  stake: Rational,
  factors: readonly Rational[],
  sizes: readonly number[],
  cap: Rational,
  boost?: Boost,
): { value: Rational; capped: boolean } {
  const n = factors.length;
  const perCombination = div(stake, fromInteger(combinationCount(n, sizes)));
  const wanted = new Set(sizes);
  const maxSize = Math.max(...sizes);
  // Fast path: without an effective boost and with no combination able to reach the cap, the sum over all
  // k-combinations of Π f is the elementary symmetric polynomial e_k(f), computed in O(n·k) exact steps.
  if (!boost || compare(boost.multiplier, ONE) === 0) {
    const sorted = [...factors].sort((a, b) => compare(b, a));
    const top = (k: number): Rational => sorted.slice(0, k).reduce(mul, ONE);
    if (sizes.every((k) => compare(mul(perCombination, top(k)), cap) <= 0)) {
      const e: Rational[] = [ONE, ...Array.from({ length: maxSize }, () => ZERO)];
      for (const f of factors) {
        for (let j = maxSize; j >= 1; j--) e[j] = add(e[j] as Rational, mul(e[j - 1] as Rational, f));
      }
      const total = [...wanted].reduce((acc, k) => add(acc, e[k] as Rational), ZERO);
      return { value: mul(perCombination, total), capped: false };
    }
  }
  let total = ZERO;
  let capped = false;
  // Depth-first over subsets with a running product: one multiplication per visited node. A zero product (a lost
  // leg) makes every superset zero too, so its subtree is skipped.
  const walk = (start: number, size: number, prod: Rational): void => {
    if (wanted.has(size)) {
      const g = expressGross(perCombination, [prod], cap, boost);
      total = add(total, g.value);
      capped ||= g.capped;
    }
    if (size === maxSize || prod.num === 0n) return;
    for (let i = start; i < n; i++) walk(i + 1, size + 1, mul(prod, factors[i] as Rational));
  };
  walk(0, 0, ONE);
  return { value: total, capped };
}

/**
 * Rounds a capped payout once, half-up to 3 decimals (the exact, then rounded once rule). When rounding up would cross the cap that
 * bound the value (a cap with more than 3 decimals, e.g. a converted 50,000 EUR), it rounds down instead, so a
 * rounded payout never exceeds its cap.
 *
 * @param value - exact payout, already capped (value ≤ cap).
 * @param cap - the cap that may bind, if any.
 */
export function roundPayout(value: Rational, cap?: Rational): Rational {
  const r = roundHalfUp(value, PAYOUT_DECIMALS);
  if (cap && compare(r, cap) > 0) return roundDown(value, PAYOUT_DECIMALS);
  return r;
}

/**
 * `settle_type` (the settle type rule): payout P above, equal to or below the reference R → 1 win, 2 refund, 3 lost.
 * R is the stake, or for a freebet bet the freebet amount (compare the payout before the freebet deduction).
 */
export function settleTypeOf(payout: Rational, reference: Rational): SettleType {
  const c = compare(payout, reference);
  return c > 0 ? SETTLE_TYPE.WIN : c === 0 ? SETTLE_TYPE.REFUND : SETTLE_TYPE.LOST;
}

/**
 * Freebet credit (the freebet payout rule, the callback contract, "Freebet conditions"): max(0, payout − freebet amount); the stake is never
 * returned.
 */
export function freebetCredit(payout: Rational, freebetAmount: Rational): Rational {
  return max(ZERO, sub(payout, freebetAmount));
}

/**
 * Settles a bet whose legs are all resulted (the settle type rule, the rules in docs/decisions.md):
 * 1. voided bet (all legs 5/6/7) → payout = exactly the stake, without boost;
 * 2. otherwise the exact gross payout ({@link exactPayout}: leg factors, boost, express cap per express/combination,
 *    white-label max payout), rounded once half-up to 3 decimals ({@link roundPayout});
 * 3. `settle_type` vs the stake (vs the freebet amount for a freebet bet);
 * 4. `settle_amount` = the payout, or the freebet credit max(0, payout − freebet amount) for a freebet bet.
 *
 * @throws DomainError `validation_error` (field `stake`, `legs`, `system_sizes[i]`, `legs[i].dead_heat`) for a bad
 * input; `not_resulted` when a leg has status 0.
 */
export function settleBet(input: SettleBetInput): BetSettlement {
  if (input.stake.num <= 0n) throw validationError('stake', 'must be positive');
  if (input.boost && compare(input.boost.multiplier, ONE) < 0) {
    throw validationError('boost.multiplier', 'must be at least 1');
  }
  if (input.expressCap.num <= 0n) throw validationError('express_cap', 'must be positive');
  if (input.maxPayout && input.maxPayout.num <= 0n) throw validationError('max_payout', 'must be positive');
  const exact = exactPayout(input); // validates the shape and every leg first
  const voided = isVoided(input.legs);
  let payout: Rational;
  let capped = false;
  if (voided) payout = input.stake;
  else {
    capped = exact.capped;
    const bound =
      input.betType === 'express' ? minDefined(input.expressCap, input.maxPayout) : input.maxPayout;
    payout = roundPayout(exact.value, bound);
  }
  const freebet = input.freebetAmount;
  const settleType = settleTypeOf(payout, freebet ?? input.stake);
  const settleAmount = freebet ? freebetCredit(payout, freebet) : payout;
  return { payout, settleAmount, settleType, voided, capped };
}

function minDefined(a: Rational, b: Rational | undefined): Rational {
  return b ? min(a, b) : a;
}
