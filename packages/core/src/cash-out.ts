/**
 * Cash-out value of an open single or express (the MTS and advisory contract, "Cash out"), full and partial.
 *
 * Model (docs/adr/0003-core-arithmetic.md): the potential payout P is what the bet pays if every unresolved leg wins
 * (resolved legs count with their settlement factors, boost and caps included). Each unresolved leg wins with
 * probability p = 1 / current odds (the implied probability; optionally de-margined over its market, or given by the
 * caller). The fair value is P × Π p; the offer is the fair value × (1 − margin), clamped to [0, P], rounded once
 * half-up to 3 decimals (the exact, then rounded once rule).
 *
 * @packageDocumentation
 */
import type { BetType } from './bet-types.js';
import { compare, div, max, min, mul, ONE, type Rational, sub, sum, ZERO } from './decimal.js';
import { DomainError, validationError } from './errors.js';
import { type Boost, exactPayout, roundPayout, type SettlementLeg } from './settlement.js';
import { ODD_STATUS } from './statuses.js';

/** A leg of a bet being cashed out: a settlement leg plus, while unresolved, its current odds or probability. */
export interface CashOutLeg extends SettlementLeg {
  /** Current odds of the selection (≥ 1); required for an unresolved leg (status 0) unless `winProbability` is set. */
  currentOdds?: Rational;
  /** Win probability in [0, 1] to use instead of 1 / `currentOdds` (e.g. de-margined, or a feed's `probability`). */
  winProbability?: Rational;
}

/** Input of {@link cashOutValue}. */
export interface CashOutInput {
  /** Only single and express bets can be cashed out (the MTS and advisory contract, "Cash out"). */
  betType: BetType;
  /** Current stake of the bet (after earlier partial cash outs), bet currency, > 0. */
  stake: Rational;
  /** Legs in bet order: resolved (status 1–7) or unresolved (status 0). */
  legs: readonly CashOutLeg[];
  /** Margin kept by the platform, a fraction in [0, 1) (e.g. 0.05 for 5 %). */
  margin: Rational;
  /** Express cap in the bet currency (the express cap rule). */
  expressCap: Rational;
  /** White-label max payout (the express cap rule), if any. */
  maxPayout?: Rational;
  /** Boost of the bet (the boosted odds rule), if any. */
  boost?: Boost;
}

/** Result of {@link cashOutValue}. Amounts in the bet currency; write them with 6 decimals. */
export interface CashOutQuote {
  /** Whether a cash out may be offered: single/express with at least one unresolved leg and no lost leg. */
  available: boolean;
  /** Why not, when not available. */
  reason?: 'no_unresolved_legs' | 'lost';
  /** Potential payout P if every unresolved leg wins, rounded half-up to 3 decimals. */
  potentialPayout: Rational;
  /** Exact fair value P × Π p (unrounded). */
  fairValue: Rational;
  /** The offer: fair value × (1 − margin), clamped to [0, P], rounded half-up to 3 decimals (0 when unavailable). */
  value: Rational;
}

/**
 * The implied win probability of decimal odds: 1 / odds (the MTS and advisory contract, "Cash out": higher probability, higher amount).
 *
 * @throws DomainError `validation_error` (field `current_odds`) when odds are below 1.
 */
export function impliedProbability(odds: Rational): Rational {
  if (compare(odds, ONE) < 0) throw validationError('current_odds', 'odds must be at least 1');
  return div(ONE, odds);
}

/**
 * The de-margined (proportionally normalized) win probability of `odds` in a market whose outcomes have `marketOdds`
 * (including `odds` itself): (1/odds) / Σ(1/odds_j). Removes the bookmaker's overround.
 *
 * @throws DomainError `validation_error` when any odds are below 1.
 */
export function deMarginedProbability(odds: Rational, marketOdds: readonly Rational[]): Rational {
  const overround = sum(marketOdds.map(impliedProbability));
  return min(ONE, div(impliedProbability(odds), overround));
}

/**
 * The cash-out value of an open single or express (the MTS and advisory contract, "Cash out"); see the module comment for the model.
 * It is never above the potential payout and never below 0.
 *
 * @throws DomainError `validation_error` for a system bet (field `bet_type`), a margin outside [0, 1) (field
 * `margin`), an unresolved leg without current odds or probability (field `legs[i].current_odds`), a probability
 * outside [0, 1] (field `legs[i].win_probability`).
 */
export function cashOutValue(input: CashOutInput): CashOutQuote {
  if (input.betType === 'system')
    throw validationError('bet_type', 'cash out is available for single and express bets only');
  if (input.stake.num <= 0n) throw validationError('stake', 'must be positive');
  if (input.margin.num < 0n || compare(input.margin, ONE) >= 0)
    throw validationError('margin', 'must be in [0, 1)');
  let probability = ONE;
  let unresolved = 0;
  input.legs.forEach((leg, i) => {
    if (leg.status !== ODD_STATUS.NOT_RESULTED) return;
    unresolved++;
    probability = mul(probability, legProbability(leg, `legs[${i}]`));
  });
  // Potential payout: every unresolved leg counted as a win at its placement odds.
  const winning = input.legs.map((l) =>
    l.status === ODD_STATUS.NOT_RESULTED ? { ...l, status: ODD_STATUS.WIN } : l,
  );
  const settleInput = {
    betType: input.betType,
    stake: input.stake,
    legs: winning,
    expressCap: input.expressCap,
    ...(input.maxPayout ? { maxPayout: input.maxPayout } : {}),
    ...(input.boost ? { boost: input.boost } : {}),
  };
  const potential = exactPayout(settleInput).value;
  const bound = input.maxPayout ? min(input.maxPayout, input.expressCap) : input.expressCap;
  const potentialPayout = roundPayout(potential, input.betType === 'express' ? bound : input.maxPayout);
  const fairValue = mul(potential, probability);
  const lost = input.legs.some((l) => l.status === ODD_STATUS.LOSS);
  if (unresolved === 0 || lost || potential.num === 0n) {
    return {
      available: false,
      reason: lost || potential.num === 0n ? 'lost' : 'no_unresolved_legs',
      potentialPayout,
      fairValue,
      value: ZERO,
    };
  }
  const offer = max(ZERO, min(potentialPayout, mul(fairValue, sub(ONE, input.margin))));
  return { available: true, potentialPayout, fairValue, value: roundPayout(offer, potentialPayout) };
}

function legProbability(leg: CashOutLeg, field: string): Rational {
  if (leg.winProbability) {
    const p = leg.winProbability;
    if (p.num < 0n || compare(p, ONE) > 0)
      throw validationError(`${field}.win_probability`, 'must be in [0, 1]');
    return p;
  }
  if (!leg.currentOdds) throw validationError(`${field}.current_odds`, 'required for an unresolved leg');
  if (compare(leg.currentOdds, ONE) < 0)
    throw validationError(`${field}.current_odds`, 'odds must be at least 1');
  return div(ONE, leg.currentOdds);
}

/** Input of {@link partialCashOut}. */
export interface PartialCashOutInput {
  /** The bet's original stake, bet currency. */
  stake: Rational;
  /** Σ `amount` of the bet's earlier accepted cash-out orders (the MTS and advisory contract: the sum must not exceed the stake). */
  cashedOut: Rational;
  /** The part of the stake to cash out now (> 0, ≤ remaining stake). */
  amount: Rational;
  /** The full cash-out value of the remaining stake ({@link cashOutValue} with stake = stake − cashedOut). */
  remainingValue: Rational;
}

/** Result of {@link partialCashOut}: a cash-out order's `amount` and `refund_amount` (the MTS and advisory contract, the cash-out callbacks rule). */
export interface PartialCashOut {
  /** Part of the stake cashed out (money, not what the player receives). */
  amount: Rational;
  /** What the player receives: remainingValue × amount / remaining stake, rounded half-up to 3 decimals. */
  refundAmount: Rational;
  /** Stake that stays in play after this order. */
  remainingStake: Rational;
  /** True when this order cashes out all that remained (a full cash out when nothing was cashed out before). */
  full: boolean;
}

/**
 * Partial (or full) cash-out arithmetic (the MTS and advisory contract, "Cash out rules"): `amount` is the part of the stake cashed out;
 * `refund_amount` is the proportional share of the remaining stake's cash-out value; the rest stays active.
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
    refundAmount: roundPayout(share, input.remainingValue),
    remainingStake,
    full: remainingStake.num === 0n,
  };
}
