import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import { parseDecimal, type Rational } from './decimal.js';
import {
  insuranceRefund,
  isInsuranceEligible,
  lostLegCount,
  parseInsuranceRule,
  settleInsurance,
} from './insurance.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x', maxDecimals: 20 });
const legs = (...statuses: number[]) => statuses.map((status) => ({ status }));

describe('insurance (spec 01 "Bet insurance conditions", DECISIONS D20)', () => {
  it('refund = amount, or min(S × percent / 100, max_amount)', () => {
    expect(insuranceRefund(d('200'), { type: 'amount', amount: d('25') })).toEqual(d('25'));
    expect(insuranceRefund(d('200'), { type: 'percent', percent: d('10'), maxAmount: d('15') })).toEqual(
      d('15'),
    );
    expect(insuranceRefund(d('200'), { type: 'percent', percent: d('5'), maxAmount: d('15') })).toEqual(
      d('10'),
    );
    expect(insuranceRefund(d('200'), { type: 'percent', percent: d('50') })).toEqual(d('100'));
  });

  it('percent with 12 decimals is exact, rounded once, never above max_amount', () => {
    // 33.333333333333 % of 10 = 3.3333333333333 → 3.333
    expect(insuranceRefund(d('10'), { type: 'percent', percent: d('33.333333333333') })).toEqual(d('3.333'));
    // cap 3.3335 would round up to 3.334: rounded down instead
    expect(insuranceRefund(d('10'), { type: 'percent', percent: d('50'), maxAmount: d('3.3335') })).toEqual(
      d('3.333'),
    );
  });

  it('pays only on a lost bet within max_odds_count_lose (spec 01: 3 allowed, 2 lost pays, 4 lost does not)', () => {
    expect(lostLegCount(legs(1, 2, 4, 5, 2))).toBe(3);
    expect(isInsuranceEligible(3, legs(2, 2, 1), 3)).toBe(true);
    expect(isInsuranceEligible(3, legs(2, 2, 2, 4), 3)).toBe(false);
    expect(isInsuranceEligible(3, legs(2, 2, 2), 3)).toBe(true);
    expect(isInsuranceEligible(3, legs(2, 2, 2, 2))).toBe(true);
    expect(isInsuranceEligible(1, legs(1))).toBe(false);
    expect(isInsuranceEligible(2, legs(5))).toBe(false);
    const rule = { type: 'amount' as const, amount: d('5'), maxOddsCountLose: 1 };
    expect(settleInsurance(3, legs(2), d('100'), rule)).toEqual({ accepted: true, refundAmount: d('5') });
    expect(settleInsurance(3, legs(2, 2), d('100'), rule)).toEqual({ accepted: false });
    expect(settleInsurance(1, legs(1), d('100'), rule)).toEqual({ accepted: false });
  });

  it('parses the wire rule, naming bad fields', () => {
    expect(
      parseInsuranceRule({ type: 'percent', percent: '10', max_amount: '15', max_odds_count_lose: 2 }),
    ).toEqual({
      type: 'percent',
      percent: d('10'),
      maxAmount: d('15'),
      maxOddsCountLose: 2,
    });
    expect(parseInsuranceRule({ type: 'amount', amount: '25' })).toEqual({ type: 'amount', amount: d('25') });
    expectFieldError(
      () => parseInsuranceRule({ type: 'percent', percent: '1e1' }),
      'insurance.percent',
      'exponent',
    );
    expectFieldError(
      () => parseInsuranceRule({ type: 'percent', percent: '101' }),
      'insurance.percent',
      '100',
    );
    expectFieldError(
      () => parseInsuranceRule({ type: 'percent', percent: '1.0000000000001' }),
      'insurance.percent',
      '12',
    );
    expectFieldError(
      () => parseInsuranceRule({ type: 'amount', amount: '-5' }),
      'insurance.amount',
      'negative',
    );
    expectFieldError(() => parseInsuranceRule({ type: 'fixed' }), 'insurance.type');
    expectFieldError(() => parseInsuranceRule([]), 'insurance');
    expectFieldError(
      () => parseInsuranceRule({ type: 'amount', amount: '1', max_odds_count_lose: -1 }),
      'insurance.max_odds_count_lose',
    );
  });
});
