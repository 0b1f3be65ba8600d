/**
 * Cash-out value of an open single or express (the MTS and advisory contract, "Cash out"), full and partial.
 *
 * Model (docs/adr/0024-cash-out.md): the fair value is what settlement would pay on average. Resulted legs count
 * with their settlement factors — the five ways a leg can end (win, half win, refund, half loss, loss) — and each
 * open leg wins with its probability p (the feed's margin-free `probability`, or 1 / current odds). Because a single
 * or an express pays nothing as soon as one open leg loses, the expectation is Π p × the payout when every open leg
 * wins, that payout computed exactly as settlement computes it (boost, express cap, white-label max payout; for a
 * freebet the freebet credit, the stake never returned). The offer is fair × (1 − margin), clamped between what
 * the bet pays if it loses (0) and if it wins, rounded once half-up to 3 decimals.
 *
 * @packageDocumentation
 */
import type { BetType } from './bet-types.js';
import {
  compare,
  div,
  format,
  max,
  min,
  mul,
  ONE,
  type Rational,
  roundHalfUp,
  sub,
  sum,
  ZERO,
} from './decimal.js';
import { DomainError, validationError } from './errors.js';
import { type Boost, exactPayout, freebetCredit, roundPayout, type SettlementLeg } from './settlement.js';
import { ODD_STATUS } from './statuses.js';

/** A leg of a bet being cashed out: a settlement leg plus, while open, its current odds or probability. */
export interface CashOutLeg extends SettlementLeg {
  /** Current odds of the selection (≥ 1); required for an open leg (status 0) unless `winProbability` is set. */
  currentOdds?: Rational;
  /** Win probability in [0, 1] to use instead of 1 / `currentOdds` (the feed's margin-free `probability`). */
  winProbability?: Rational;
  /** True when the leg's market is suspended, stopped or the odd is inactive: no cash out is offered. */
  suspended?: boolean;
}

/** Input of {@link cashOutValue}. */
export interface CashOutInput {
  /** Only single and express bets can be cashed out (the MTS and advisory contract, "Cash out"). */
  betType: BetType;
  /** Stake to value (the remaining stake after earlier cash-outs, or the part asked), bet currency, > 0. */
  stake: Rational;
  /** Legs in bet order: resulted (status 1–7) or open (status 0). */
  legs: readonly CashOutLeg[];
  /** Margin kept by the platform, a fraction in [0, 1) (e.g. 0.05 for 5 %). */
  margin: Rational;
  /** Express cap in the bet currency. */
  expressCap: Rational;
  /** White-label max payout, if any. */
  maxPayout?: Rational;
  /** Boost of the bet, if any. */
  boost?: Boost;
  /** True for a bet placed with a freebet: its payout is credited less the stake (the stake never comes back). */
  freebet?: boolean;
}

/** Why a cash out is not offered. */
export type CashOutUnavailableReason =
  | 'bet_type_not_supported'
  | 'leg_lost'
  | 'no_open_legs'
  | 'market_suspended'
  | 'nothing_to_win';

/** Result of {@link cashOutValue}. Amounts in the bet currency; write them with 6 decimals. */
export interface CashOutQuote {
  /** Whether a cash out may be offered. */
  available: boolean;
  /** Why not, when not available. */
  reason?: CashOutUnavailableReason;
  /** What the bet pays if every open leg wins (freebet credit for a freebet), rounded half-up to 3 decimals. */
  potentialPayout: Rational;
  /** Exact fair value Π p × the winning payout (unrounded). */
  fairValue: Rational;
  /** The offer: fair × (1 − margin), clamped to [0, winning payout], rounded half-up to 3 decimals (0 if none). */
  value: Rational;
  /** The same offer before rounding (exact); the base of a partial cash-out's share ({@link partialCashOut}). */
  exactOffer: Rational;
}

/**
 * The implied win probability of decimal odds: 1 / odds.
 *
 * @throws DomainError `validation_error` (field `current_odds`) when odds are below 1.
 */
export function impliedProbability(odds: Rational): Rational {
  if (compare(odds, ONE) < 0) throw validationError('current_odds', 'odds must be at least 1');
  return div(ONE, odds);
}

/**
 * The margin-free win probability of `odds` in a market whose active outcomes have `marketOdds` (including `odds`):
 * (1/odds) / Σ(1/odds_j) — the margin removed proportionally over the active outcomes. Exact.
 *
 * @throws DomainError `validation_error` when any odds are below 1.
 */
export function deMarginedProbability(odds: Rational, marketOdds: readonly Rational[]): Rational {
  const overround = sum(marketOdds.map(impliedProbability));
  return min(ONE, div(impliedProbability(odds), overround));
}

/**
 * The feed's `probability` of every active odd of a market: {@link deMarginedProbability} over the active odds,
 * written with 12 decimals (half-up). Inactive odds get `null` (they take no part in the market).
 *
 * @param odds - the market's odds in order: value (decimal odds ≥ 1) and whether the odd is active.
 * @returns one decimal string (12 decimals) or `null` per odd, in the same order.
 * @throws DomainError `validation_error` when an active odd's value is below 1.
 */
export function marketProbabilities(
  odds: readonly { value: Rational; active: boolean }[],
): (string | null)[] {
  const active = odds.filter((o) => o.active).map((o) => o.value);
  if (active.length === 0) return odds.map(() => null);
  const overround = sum(active.map(impliedProbability));
  return odds.map((o) =>
    o.active ? format(min(ONE, div(impliedProbability(o.value), overround)), 12) : null,
  );
}

function winningPayout(input: CashOutInput): { exact: Rational; rounded: Rational } {
  const winning = input.legs.map((l) =>
    l.status === ODD_STATUS.NOT_RESULTED ? { ...l, status: ODD_STATUS.WIN } : l,
  );
  const exact = exactPayout({
    betType: input.betType,
    stake: input.stake,
    legs: winning,
    expressCap: input.expressCap,
    ...(input.maxPayout ? { maxPayout: input.maxPayout } : {}),
    ...(input.boost ? { boost: input.boost } : {}),
  }).value;
  const bound =
    input.betType === 'express'
      ? input.maxPayout
        ? min(input.maxPayout, input.expressCap)
        : input.expressCap
      : input.maxPayout;
  const gross = roundPayout(exact, bound);
  if (!input.freebet) return { exact, rounded: gross };
  return { exact: freebetCredit(exact, input.stake), rounded: freebetCredit(gross, input.stake) };
}

/**
 * The cash-out value of an open single or express (the MTS and advisory contract, "Cash out"); see the module comment for the model.
 * Never above what the bet pays if it wins, never below 0. Offered only for singles and expresses with at least one
 * open leg, no lost leg and no suspended market; otherwise `available: false` with a reason and a value of 0.
 *
 * @throws DomainError `validation_error` for a stake ≤ 0 (field `stake`), a margin outside [0, 1) (field `margin`),
 * an open leg without current odds or probability (field `legs[i].current_odds`), a probability outside [0, 1]
 * (field `legs[i].win_probability`).
 */
export function cashOutValue(input: CashOutInput): CashOutQuote {
  if (input.stake.num <= 0n) throw validationError('stake', 'must be positive');
  if (input.margin.num < 0n || compare(input.margin, ONE) >= 0)
    throw validationError('margin', 'must be in [0, 1)');
  const none = (reason: CashOutUnavailableReason, potentialPayout = ZERO, fairValue = ZERO) => ({
    available: false,
    reason,
    potentialPayout,
    fairValue,
    value: ZERO,
    exactOffer: ZERO,
  });
  if (input.betType === 'system') return none('bet_type_not_supported');
  let probability = ONE;
  let open = 0;
  input.legs.forEach((leg, i) => {
    if (leg.status !== ODD_STATUS.NOT_RESULTED) return;
    open++;
    probability = mul(probability, legProbability(leg, `legs[${i}]`));
  });
  if (input.legs.some((l) => l.status === ODD_STATUS.LOSS)) return none('leg_lost');
  if (open === 0) return none('no_open_legs');
  if (input.legs.some((l) => l.status === ODD_STATUS.NOT_RESULTED && l.suspended))
    return none('market_suspended');
  const winning = winningPayout(input);
  const fairValue = mul(winning.exact, probability);
  if (winning.rounded.num === 0n) return none('nothing_to_win', winning.rounded, fairValue);
  const offer = max(ZERO, min(winning.rounded, mul(fairValue, sub(ONE, input.margin))));
  return {
    available: true,
    potentialPayout: winning.rounded,
    fairValue,
    value: roundPayout(offer, winning.rounded),
    exactOffer: offer,
  };
}

function legProbability(leg: CashOutLeg, field: string): Rational {
  if (leg.winProbability) {
    const p = leg.winProbability;
    if (p.num < 0n || compare(p, ONE) > 0)
      throw validationError(`${field}.win_probability`, 'must be in [0, 1]');
    return p;
  }
  if (!leg.currentOdds) throw validationError(`${field}.current_odds`, 'required for an open leg');
  if (compare(leg.currentOdds, ONE) < 0)
    throw validationError(`${field}.current_odds`, 'odds must be at least 1');
  return div(ONE, leg.currentOdds);
}

/** Input of {@link partialCashOut}. */
export interface PartialCashOutInput {
  /** The bet's original stake, bet currency. */
  stake: Rational;
  /** Σ `amount` of the bet's accepted cash-out orders so far (their sum never exceeds the stake). */
  cashedOut: Rational;
  /** The part of the stake to cash out now (> 0, ≤ remaining stake). */
  amount: Rational;
  /** The exact offer for the whole remaining stake ({@link CashOutQuote.exactOffer}, already clamped). */
  remainingValue: Rational;
}

/** Result of {@link partialCashOut}: a cash-out order's `amount` and `refund_amount`. */
export interface PartialCashOut {
  /** Part of the stake cashed out (money, not what the player receives). */
  amount: Rational;
  /** What the player receives: remainingValue × amount / remaining stake, rounded half-up to 3 decimals. */
  refundAmount: Rational;
  /** Stake that stays in play after this order. */
  remainingStake: Rational;
  /** True when this order cashes out all that remained. */
  full: boolean;
}

/**
 * Partial (or full) cash-out arithmetic (the MTS and advisory contract, "Cash out rules"): `amount` is the part of the stake cashed out;
 * `refund_amount` is the proportional share of the remaining stake's value, rounded once; the rest stays active.
 *
 * @throws DomainError `validation_error` (field `amount`) when amount ≤ 0 or exceeds the remaining stake;
 * `conflict` when the earlier orders already exceed the stake.
 */
export function partialCashOut(input: PartialCashOutInput): PartialCashOut {
  const remaining = sub(input.stake, input.cashedOut);
  if (remaining.num < 0n) throw new DomainError('conflict', 'cash-out orders already exceed the stake');
  if (input.amount.num <= 0n) throw validationError('amount', 'must be positive');
  if (compare(input.amount, remaining) > 0) throw validationError('amount', 'exceeds the remaining stake');
  const share = div(mul(input.remainingValue, input.amount), remaining);
  const remainingStake = sub(remaining, input.amount);
  return {
    amount: input.amount,
    refundAmount: roundHalfUp(share, 3),
    remainingStake,
    full: remainingStake.num === 0n,
  };
}

/**
 * The stake settlement still pays on: the stake less Σ `amount` of the accepted cash-out orders (the MTS and advisory contract "Cash out
 * rules"). Pending and declined orders do not count.
 *
 * @throws DomainError `conflict` when the accepted orders exceed the stake.
 */
export function remainingStake(
  stake: Rational,
  orders: readonly { amount: Rational; status: 'pending' | 'accepted' | 'declined' }[],
): Rational {
  const cashed = sum(orders.filter((o) => o.status === 'accepted').map((o) => o.amount));
  const rest = sub(stake, cashed);
  if (rest.num < 0n) throw new DomainError('conflict', 'accepted cash-out orders exceed the stake');
  return rest;
}
