/**
 * Bet insurance: the refund rule and when it pays (the callback contract, "Bet insurance conditions", the insurance payout rule).
 *
 * @packageDocumentation
 */
import { compare, div, mul, parseDecimal, parseMoney, type Rational, rational } from './decimal.js';
import { validationError } from './errors.js';
import { roundPayout } from './settlement.js';
import { ODD_STATUS, SETTLE_TYPE, type SettleType } from './statuses.js';

/**
 * An insurance payout rule (the callback contract, "Payout rules"): a fixed `amount`, or `percent` of the stake capped at
 * `maxAmount`. `maxOddsCountLose` is the most lost legs (loss or half loss) that still pay; absent = no limit.
 */
export type InsuranceRule =
  | {
      /** Fixed refund (strategy RefundAmountAmountRule). */
      type: 'amount';
      /** Refund amount, bet currency, exact (≤ 6 decimals). */
      amount: Rational;
      /** Most lost legs that still pay (the insurance payout rule); absent: no limit. */
      maxOddsCountLose?: number;
    }
  | {
      /** Percentage refund (strategy RefundAmountPercentRule). */
      type: 'percent';
      /** Percent of the stake, percent units (10 = 10 %), up to 12 decimals, in (0, 100]. */
      percent: Rational;
      /** Cap of the refund, bet currency, up to 12 decimals; absent: no cap. */
      maxAmount?: Rational;
      /** Most lost legs that still pay (the insurance payout rule); absent: no limit. */
      maxOddsCountLose?: number;
    };

/**
 * Parses an insurance rule from its wire shape `{type, amount | percent, max_amount?, max_odds_count_lose?}`
 * (the callback contract, "Payout rules"): `amount` money with ≤ 6 decimals; `percent` in (0, 100] and `max_amount` with ≤ 12
 * decimals; `max_odds_count_lose` a non-negative integer.
 *
 * @param field - path of the rule for errors (default `insurance`), e.g. errors name `insurance.percent`.
 * @throws DomainError `validation_error` naming the field.
 */
export function parseInsuranceRule(input: unknown, field = 'insurance'): InsuranceRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw validationError(field, 'must be an object');
  }
  const o = input as Record<string, unknown>;
  let maxOddsCountLose: number | undefined;
  if (o.max_odds_count_lose !== undefined) {
    const v = o.max_odds_count_lose;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw validationError(`${field}.max_odds_count_lose`, 'must be a non-negative integer');
    }
    maxOddsCountLose = v;
  }
  const limit = maxOddsCountLose === undefined ? {} : { maxOddsCountLose };
  if (o.type === 'amount') {
    const amount = parseMoney(o.amount, `${field}.amount`, { allowZero: false });
    return { type: 'amount', amount, ...limit };
  }
  if (o.type === 'percent') {
    const percent = parseDecimal(o.percent, { field: `${field}.percent`, maxDecimals: 12, allowZero: false });
    if (compare(percent, rational(100n)) > 0)
      throw validationError(`${field}.percent`, 'must be at most 100');
    const maxAmount =
      o.max_amount === undefined
        ? undefined
        : parseDecimal(o.max_amount, { field: `${field}.max_amount`, maxDecimals: 12, allowZero: false });
    return { type: 'percent', percent, ...(maxAmount ? { maxAmount } : {}), ...limit };
  }
  throw validationError(
    `${field}.type`,
    `must be "amount" or "percent", got ${JSON.stringify(o.type) ?? 'nothing'}`,
  );
}

/**
 * The refund of an insurance rule for a stake (the insurance payout rule): `amount`, or min(S × percent / 100, max_amount),
 * computed exactly, capped, then rounded once half-up to 3 decimals without crossing the cap (the exact, then rounded once rule,
 * {@link roundPayout}). Does not check eligibility; see {@link settleInsurance}.
 *
 * @param stake - stake S, bet currency.
 * @returns the refund amount, bet currency; write it with 6 decimals.
 */
export function insuranceRefund(stake: Rational, rule: InsuranceRule): Rational {
  if (rule.type === 'amount') return rule.amount;
  const raw = div(mul(stake, rule.percent), rational(100n));
  if (rule.maxAmount && compare(raw, rule.maxAmount) > 0) return roundPayout(rule.maxAmount, rule.maxAmount);
  return roundPayout(raw);
}

/** Number of legs that count as lost for insurance (the insurance payout rule): odd status 2 loss or 4 half loss. */
export function lostLegCount(legs: readonly { status: number }[]): number {
  return legs.filter((l) => l.status === ODD_STATUS.LOSS || l.status === ODD_STATUS.HALF_LOSS).length;
}

/**
 * Whether insurance pays (the insurance payout rule): the bet settled lost (`settle_type` 3) and its count of lost legs
 * (loss or half loss) is ≤ `maxOddsCountLose` (no limit when absent). The callback contract: with 3 allowed, 2 lost pays and 4
 * lost does not.
 */
export function isInsuranceEligible(
  settleType: SettleType,
  legs: readonly { status: number }[],
  maxOddsCountLose?: number,
): boolean {
  if (settleType !== SETTLE_TYPE.LOST) return false;
  return maxOddsCountLose === undefined || lostLegCount(legs) <= maxOddsCountLose;
}

/** Outcome of {@link settleInsurance}: `/bet/insurances/accepted` with `refundAmount`, or `/bet/insurances/decline`. */
export type InsuranceOutcome = { accepted: true; refundAmount: Rational } | { accepted: false };

/**
 * Settles the insurance of a settled bet (the callback contract, "Bet insurance" states, the insurance payout rule): accepted with the refund
 * when {@link isInsuranceEligible}, declined when the bet won, was refunded, or lost too many legs.
 */
export function settleInsurance(
  settleType: SettleType,
  legs: readonly { status: number }[],
  stake: Rational,
  rule: InsuranceRule,
): InsuranceOutcome {
  if (!isInsuranceEligible(settleType, legs, rule.maxOddsCountLose)) return { accepted: false };
  return { accepted: true, refundAmount: insuranceRefund(stake, rule) };
}
