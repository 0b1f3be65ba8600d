import {
  type Boost,
  type CashOutLeg,
  type CashOutQuote,
  cashOutValue,
  compare,
  div,
  EXPRESS_CAP_EUR,
  isAcceptable,
  ODD_STATUS,
  type OddStatus,
  parseDecimal,
  parseFeedOddValue,
  partialCashOut,
  type Rational,
  ZERO,
} from '@bookie/core';
import { remainingStake } from '../settlement/index.js';
import type { ValuedBet } from './cash-out.repo.js';
import type { CashOutDeps } from './deps.js';
import { paysThroughCallbacks } from './pays-through-callbacks.js';

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

/**
 * The cash-out value of a bet's remaining stake on the current prices: resulted legs with their results, open legs
 * with the feed's margin-free probability (1 / odds when an odd carries none), suspended when the acceptance rule
 * would refuse a bet on them now; the bet's boost, freebet and caps as settlement counts them.
 */
/**
 * A white label's cash-out terms: its margin and max payout, and whether a cash-out of a bet placed in the frame
 * can be paid to it (its cash-out callbacks are supported).
 */
export interface Pricing {
  margin: Rational;
  maxPayout: Rational | undefined;
  payable: boolean;
}

/** Reads a white label's cash-out terms (before any transaction: it reads outside it). */
export async function pricingOf(deps: CashOutDeps, whiteLabelId: string): Promise<Pricing> {
  return {
    margin: await deps.margin(whiteLabelId),
    maxPayout: await deps.maxPayout(whiteLabelId),
    payable: await deps.payable(whiteLabelId),
  };
}

export function valueBet(deps: CashOutDeps, bet: ValuedBet, stake: Rational, pricing: Pricing): CashOutQuote {
  const row = bet.row;
  const legs: CashOutLeg[] = bet.selections.map((s) => {
    const leg: CashOutLeg = { odds: exact(s.odds, 'odds'), status: s.status as OddStatus };
    if (s.dead_heat !== null && s.status === ODD_STATUS.WIN) leg.deadHeat = exact(s.dead_heat, 'dead_heat');
    if (s.status !== ODD_STATUS.NOT_RESULTED) return leg;
    const event = deps.currentEvent(s.sport_event_id);
    const odd = event?.markets[s.market_id]?.odds[s.odd_id];
    const ref = { sport_event_id: s.sport_event_id, market_id: s.market_id, odd_id: s.odd_id };
    if (!event || !odd || !isAcceptable(event, ref)) {
      leg.suspended = true;
      leg.winProbability = exact('0', 'probability');
      return leg;
    }
    if (odd.probability) leg.winProbability = exact(odd.probability, 'probability');
    else leg.currentOdds = parseFeedOddValue(odd.value, 'value');
    return leg;
  });
  let boost: Boost | undefined;
  if (row.boost_multiplier !== null) boost = { multiplier: exact(row.boost_multiplier, 'boost_multiplier') };
  else if (row.boost_id) {
    const total = exact(row.total_odds, 'total_odds');
    const base = exact(row.base_odds, 'base_odds');
    if (base.num > 0n && compare(total, base) > 0) boost = { multiplier: div(total, base) };
  }
  const { maxPayout } = pricing;
  return cashOutValue({
    betType: row.bet_type,
    stake,
    legs,
    margin: pricing.margin,
    expressCap: deps.expressCap(row.currency) ?? EXPRESS_CAP_EUR,
    ...(maxPayout ? { maxPayout } : {}),
    ...(boost ? { boost } : {}),
    freebet: row.freebet_id !== null,
  });
}

/**
 * Why a bet offers no cash-out: a foreign selection, a white label that cannot be paid, the value's reasons, a bet
 * that is not open, or an amount above what remains.
 */
export type NoOfferReason =
  | CashOutQuote['reason']
  | 'foreign_selections'
  | 'bet_builder'
  | 'cash_out_unavailable'
  | 'bet_builder'
  | 'bet_not_open'
  | 'amount_too_large';

/** The offer for `amount` of a bet's remaining stake (all of it by default), exact and rounded once. */
export interface Offer {
  available: boolean;
  reason?: NoOfferReason;
  /** The part of the stake asked. */
  amount: Rational;
  /** What the player would receive (0 when nothing is offered). */
  refund: Rational;
  /** The remaining stake before this cash-out. */
  remaining: Rational;
}

/**
 * The offer for cashing out `amount` of a bet's remaining stake on the current prices: the proportional share of
 * the remaining stake's value, rounded once. Offers nothing, with a reason, first for a bet with a foreign selection
 * (`foreign_selections`, open or resulted: only the partner cashes it out), then for a bet paid through the
 * cash-out callbacks of a white label that does not support them (`cash_out_unavailable`), then for a bet carrying
 * a bet builder (`bet_builder`, D65: not cashed out), then for a bet that is
 * not open (accepted or unsettled), an amount above the remaining stake, or when the value offers nothing.
 */
export function offerFor(
  deps: CashOutDeps,
  bet: ValuedBet,
  amount: Rational | undefined,
  pricing: Pricing,
): Offer {
  const remaining = remainingStake(bet.row);
  const asked = amount ?? remaining;
  const none = (reason: NoOfferReason): Offer => ({
    available: false,
    reason,
    amount: asked,
    refund: ZERO,
    remaining,
  });
  if (bet.selections.some((s) => s.foreign_id)) return none('foreign_selections');
  if (paysThroughCallbacks(bet.row) && !pricing.payable) return none('cash_out_unavailable');
  // D65: a builder's value would need the score model conditioned on the match so far
  if (bet.builders.length > 0) return none('bet_builder');
  if (bet.row.state !== 'accepted' && bet.row.state !== 'unsettled') return none('bet_not_open');
  if (remaining.num <= 0n) return none('bet_not_open');
  if (compare(asked, remaining) > 0) return none('amount_too_large');
  const full = valueBet(deps, bet, remaining, pricing);
  if (!full.available) return none(full.reason);
  const refund =
    compare(asked, remaining) === 0
      ? full.value
      : partialCashOut({ stake: remaining, cashedOut: ZERO, amount: asked, remainingValue: full.exactOffer })
          .refundAmount;
  return { available: true, amount: asked, refund, remaining };
}
