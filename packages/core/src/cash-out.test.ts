import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import {
  type CashOutInput,
  type CashOutLeg,
  cashOutValue,
  deMarginedProbability,
  impliedProbability,
  partialCashOut,
  remainingStake,
} from './cash-out.js';
import { abs, add, compare, parseDecimal, type Rational, rational, sub, ZERO } from './decimal.js';
import { EXPRESS_CAP_EUR } from './settlement.js';
import type { OddStatus } from './statuses.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x', maxDecimals: 20 });
const open = (odds: string, current: string): CashOutLeg => ({
  odds: d(odds),
  status: 0,
  currentOdds: d(current),
});
const done = (odds: string, status: number): CashOutLeg => ({ odds: d(odds), status: status as OddStatus });
const input = (legs: CashOutLeg[], over: Partial<CashOutInput> = {}): CashOutInput => ({
  betType: legs.length === 1 ? 'single' : 'express',
  stake: d('10'),
  legs,
  margin: d('0'),
  expressCap: EXPRESS_CAP_EUR,
  ...over,
});

describe('cash-out value (spec 03 "Cash out")', () => {
  it('single: potential payout × 1/current odds, less the margin', () => {
    const q = cashOutValue(input([open('2.00', '1.50')], { margin: d('0.05') }));
    expect(q.potentialPayout).toEqual(d('20'));
    expect(q.fairValue).toEqual(rational(40n, 3n)); // 20 / 1.5
    expect(q.value).toEqual(d('12.667')); // 13.333… × 0.95 = 12.6666… → 12.667
    expect(q.available).toBe(true);
  });

  it('higher win probability gives a higher amount', () => {
    const low = cashOutValue(input([open('2.00', '3.00')])).value;
    const high = cashOutValue(input([open('2.00', '1.20')])).value;
    expect(compare(high, low)).toBe(1);
  });

  it('express: resolved legs count with their factors', () => {
    const q = cashOutValue(input([done('2.0', 1), done('1.9', 5), open('3.0', '2.0')]));
    expect(q.potentialPayout).toEqual(d('60'));
    expect(q.value).toEqual(d('30'));
    const half = cashOutValue(input([done('2.0', 3), open('3.0', '2.0')]));
    expect(half.potentialPayout).toEqual(d('45')); // 10 × 1.5 × 3
  });

  it('a lost leg gives 0; a fully resolved bet offers nothing', () => {
    expect(cashOutValue(input([done('2.0', 2), open('3.0', '2.0')]))).toMatchObject({
      available: false,
      reason: 'leg_lost',
    });
    expect(cashOutValue(input([done('2.0', 1), done('3.0', 1)]))).toMatchObject({
      available: false,
      reason: 'no_open_legs',
      value: d('0'),
    });
  });

  it('is capped by the express cap and boosted like the bet', () => {
    const q = cashOutValue(input([open('20', '1.0'), open('30', '1.0')], { stake: d('100') }));
    expect(q.potentialPayout).toEqual(d('50000'));
    expect(q.value).toEqual(d('50000'));
    const b = cashOutValue(input([open('2', '2')], { boost: { multiplier: d('1.5') } }));
    expect(b.potentialPayout).toEqual(d('30'));
    expect(b.value).toEqual(d('15'));
  });

  it('uses a given or de-margined probability', () => {
    expect(impliedProbability(d('4'))).toEqual(d('0.25'));
    // two outcomes at 1.9 / 1.9: implied 0.526…, de-margined 0.5
    expect(deMarginedProbability(d('1.9'), [d('1.9'), d('1.9')])).toEqual(d('0.5'));
    const q = cashOutValue(input([{ odds: d('2'), status: 0, winProbability: d('0.6') }]));
    expect(q.value).toEqual(d('12'));
  });

  it('never above the potential payout, never below 0', () => {
    const arbLeg = fc.oneof(
      fc
        .tuple(fc.bigInt({ min: 1000n, max: 20_000n }), fc.bigInt({ min: 1000n, max: 20_000n }))
        .map(
          ([o, c]): CashOutLeg => ({ odds: rational(o, 1000n), status: 0, currentOdds: rational(c, 1000n) }),
        ),
      fc
        .tuple(fc.bigInt({ min: 1000n, max: 20_000n }), fc.integer({ min: 1, max: 7 }))
        .map(([o, s]): CashOutLeg => ({ odds: rational(o, 1000n), status: s as OddStatus })),
    );
    fc.assert(
      fc.property(
        fc.array(arbLeg, { minLength: 1, maxLength: 5 }),
        fc.bigInt({ min: 0n, max: 999n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (legs, margin, stake) => {
          const q = cashOutValue(
            input(legs, { margin: rational(margin, 1000n), stake: rational(stake, 1000n) }),
          );
          expect(compare(q.value, q.potentialPayout)).toBeLessThanOrEqual(0);
          expect(q.value.num >= 0n).toBe(true);
        },
      ),
    );
  });

  it('offers nothing for systems and suspended markets, with a reason', () => {
    expect(cashOutValue(input([open('2', '2'), open('2', '2')], { betType: 'system' }))).toMatchObject({
      available: false,
      reason: 'bet_type_not_supported',
    });
    expect(cashOutValue(input([{ ...open('2', '2'), suspended: true }]))).toMatchObject({
      available: false,
      reason: 'market_suspended',
    });
  });

  it('rejects bad margins and open legs without a price', () => {
    expectFieldError(() => cashOutValue(input([open('2', '2')], { margin: d('1') })), 'margin');
    expectFieldError(() => cashOutValue(input([{ odds: d('2'), status: 0 }])), 'legs[0].current_odds');
    expectFieldError(
      () => cashOutValue(input([{ odds: d('2'), status: 0, winProbability: d('1.5') }])),
      'legs[0].win_probability',
    );
  });
});

describe('partial cash out (spec 03 "Cash out rules")', () => {
  it('pays the proportional share; the rest stays active', () => {
    const p = partialCashOut({ stake: d('10'), cashedOut: d('0'), amount: d('4'), remainingValue: d('15') });
    expect(p).toEqual({ amount: d('4'), refundAmount: d('6'), remainingStake: d('6'), full: false });
    const rest = partialCashOut({
      stake: d('10'),
      cashedOut: d('4'),
      amount: d('6'),
      remainingValue: d('9.5'),
    });
    expect(rest).toEqual({ amount: d('6'), refundAmount: d('9.5'), remainingStake: d('0'), full: true });
    expect(
      partialCashOut({ stake: d('3'), cashedOut: d('0'), amount: d('1'), remainingValue: d('10') }),
    ).toMatchObject({ refundAmount: d('3.333') });
  });

  it('the amounts of all orders never exceed the stake', () => {
    expectFieldError(
      () => partialCashOut({ stake: d('10'), cashedOut: d('4'), amount: d('6.01'), remainingValue: d('9') }),
      'amount',
      'remaining',
    );
    expectFieldError(
      () => partialCashOut({ stake: d('10'), cashedOut: d('0'), amount: d('0'), remainingValue: d('9') }),
      'amount',
    );
    expect(() =>
      partialCashOut({ stake: d('10'), cashedOut: d('11'), amount: d('1'), remainingValue: d('9') }),
    ).toThrow(/exceed the stake/);
  });
});

const p = (odds: string, prob: string): CashOutLeg => ({ odds: d(odds), status: 0, winProbability: d(prob) });

describe('cash-out golden vectors (exact decimals)', () => {
  const vectors: { name: string; in: CashOutInput; winning: string; value: string }[] = [
    {
      name: 'Asian quarter lines: a half win and a half loss resulted, one open leg',
      in: input([done('1.90', 3), done('2.10', 4), p('2.00', '0.55')], { margin: d('0.05') }),
      winning: '14.5', // 10 × 1.45 × 0.5 × 2
      value: '7.576', // 14.5 × 0.55 × 0.95 = 7.57625
    },
    {
      name: 'a voided leg counts 1',
      in: input([done('3.0', 5), p('2.5', '0.4')], { margin: d('0.05') }),
      winning: '25',
      value: '9.5',
    },
    {
      name: 'a boosted single',
      in: input([p('2', '0.5')], { margin: d('0.05'), boost: { multiplier: d('1.1') } }),
      winning: '22',
      value: '10.45',
    },
    {
      name: 'a boost applies only when the express wins beyond the stake',
      in: input([done('2.0', 4), p('3.0', '0.333333333333')], { boost: { multiplier: d('1.2') } }),
      winning: '18', // 0.5 × 3 = 1.5 > 1 → × 1.2
      value: '6', // 18 × 0.333333333333 = 5.999999999994 → 6.000
    },
    {
      name: 'a freebet: the stake never comes back',
      in: input([p('3', '0.4')], { margin: d('0.05'), freebet: true }),
      winning: '20', // 30 − 10
      value: '7.6',
    },
    {
      name: 'the express cap bounds the winning payout',
      in: input([done('20', 1), p('10', '0.125')], { stake: d('1000'), margin: d('0.05') }),
      winning: '50000',
      value: '5937.5',
    },
    {
      name: 'rounded once, half-up to 3 decimals',
      in: input([open('2.00', '3')], { margin: d('0.05') }),
      winning: '20',
      value: '6.333', // 20 / 3 × 0.95 = 6.3333…
    },
  ];
  for (const v of vectors) {
    it(v.name, () => {
      const q = cashOutValue(v.in);
      expect(q.available).toBe(true);
      expect(q.potentialPayout).toEqual(d(v.winning));
      expect(q.value).toEqual(d(v.value));
    });
  }
});

describe('cash-out properties', () => {
  const leg = fc.oneof(
    fc
      .tuple(fc.bigInt({ min: 1001n, max: 20_000n }), fc.bigInt({ min: 0n, max: 1000n }))
      .map(
        ([o, q]): CashOutLeg => ({ odds: rational(o, 1000n), status: 0, winProbability: rational(q, 1000n) }),
      ),
    fc
      .tuple(fc.bigInt({ min: 1001n, max: 20_000n }), fc.constantFrom(1, 3, 4, 5, 6, 7))
      .map(([o, s]): CashOutLeg => ({ odds: rational(o, 1000n), status: s as OddStatus })),
  );
  const legs = fc.array(leg, { minLength: 1, maxLength: 3 }).filter((ls) => ls.some((l) => l.status === 0));

  it('the offer lies between what the bet pays if it loses (0) and if it wins', () => {
    fc.assert(
      fc.property(
        legs,
        fc.bigInt({ min: 0n, max: 999n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.boolean(),
        (ls, m, s, fb) => {
          const q = cashOutValue(
            input(ls, { margin: rational(m, 1000n), stake: rational(s, 1000n), freebet: fb }),
          );
          expect(compare(q.value, q.potentialPayout)).toBeLessThanOrEqual(0);
          expect(q.value.num >= 0n).toBe(true);
        },
      ),
    );
  });

  it('a partial cash-out plus the remainder valued later at the same prices equals the full offer (± rounding)', () => {
    fc.assert(
      fc.property(
        legs,
        fc.bigInt({ min: 2n, max: 5000n }),
        fc.bigInt({ min: 1n, max: 999n }),
        (ls, s, share) => {
          const stake = rational(s, 1000n);
          const amount = rational(s * share, 1_000_000n);
          fc.pre(amount.num > 0n && compare(amount, stake) < 0);
          const full = cashOutValue(input(ls, { stake, margin: d('0.05') }));
          fc.pre(full.available);
          const part = partialCashOut({ stake, cashedOut: ZERO, amount, remainingValue: full.exactOffer });
          const rest = cashOutValue(input(ls, { stake: part.remainingStake, margin: d('0.05') }));
          const gap = sub(add(part.refundAmount, rest.value), full.value);
          expect(compare(abs(gap), d('0.002'))).toBeLessThanOrEqual(0);
          expect(add(part.amount, part.remainingStake)).toEqual(stake);
        },
      ),
    );
  });

  it('the remaining stake is the stake less the accepted orders only', () => {
    expect(
      remainingStake(d('10'), [
        { amount: d('4'), status: 'accepted' },
        { amount: d('3'), status: 'declined' },
        { amount: d('1'), status: 'pending' },
      ]),
    ).toEqual(d('6'));
    expect(() => remainingStake(d('1'), [{ amount: d('2'), status: 'accepted' }])).toThrow(/exceed/);
  });
});
