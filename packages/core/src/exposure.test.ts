/** Exposure apportioning (D37): the fixed-point logarithm, the weights and the largest-remainder split. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, compare, mul, parseDecimal, type Rational, rational, sub, ZERO } from './decimal.js';
import {
  apportion,
  betExposure,
  LN_DIGITS,
  legWeights,
  lnFixed,
  potentialWinEur,
  winPerUnitStakeEur,
} from './exposure.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });
const SCALE = 10n ** BigInt(LN_DIGITS);
const arbOdds = fc.bigInt({ min: 1000n, max: 1_000_000n }).map((n) => rational(n, 1000n)); // 1.000 … 1000.000

describe('lnFixed', () => {
  it('is 0 at 1 and ln 2, ln 10 to 40 digits', () => {
    expect(lnFixed(d('1'))).toBe(0n);
    expect(lnFixed(d('2'))).toBe(6931471805599453094172321214581765680755n);
    expect(lnFixed(d('10'))).toBe(23025850929940456840179914546843642076011n);
  });

  it('refuses x < 1', () => {
    expect(() => lnFixed(d('0.99'))).toThrow(RangeError);
  });

  it('is additive: ln(a·b) = ln a + ln b within 2 units of the last digit', () => {
    fc.assert(
      fc.property(arbOdds, arbOdds, (a, b) => {
        const diff = lnFixed(mul(a, b)) - lnFixed(a) - lnFixed(b);
        expect(diff >= -2n && diff <= 2n).toBe(true);
      }),
    );
  });

  it('is monotone', () => {
    fc.assert(
      fc.property(arbOdds, arbOdds, (a, b) => {
        const c = compare(a, b);
        const la = lnFixed(a);
        const lb = lnFixed(b);
        expect(c < 0 ? la <= lb : c > 0 ? la >= lb : la === lb).toBe(true);
      }),
    );
  });

  it('scale is 10^LN_DIGITS', () => {
    const e = rational(2718281828459045235360287n, 10n ** 24n);
    expect(lnFixed(e) / (SCALE / 10n ** 9n)).toBe(999999999n);
  });
});

describe('legWeights and apportion', () => {
  it('a single carries everything; equal odds share equally', () => {
    expect(legWeights([d('2.5')])).toEqual([rational(1n)]);
    expect(legWeights([d('2'), d('2')])).toEqual([rational(1n, 2n), rational(1n, 2n)]);
    expect(legWeights([d('1'), d('1')])).toEqual([rational(1n, 2n), rational(1n, 2n)]);
  });

  it('an express: the part of leg i is ln(o_i)/ln(total odds) (D37)', () => {
    const w = legWeights([d('2'), d('4')]); // ln4 = 2 ln2
    expect(compare(w[1] as Rational, mul(w[0] as Rational, rational(2n)))).toBe(0);
  });

  it('parts add up exactly to the amount and each is within one micro-unit of its exact share', () => {
    fc.assert(
      fc.property(
        fc.array(arbOdds, { minLength: 1, maxLength: 8 }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (odds, micros) => {
          const amount = rational(micros, 1_000_000n);
          const weights = legWeights(odds);
          const parts = apportion(amount, weights);
          expect(compare(parts.reduce(add, ZERO), amount)).toBe(0);
          parts.forEach((p, i) => {
            const exact = mul(amount, weights[i] as Rational);
            const gap = sub(p, exact);
            expect(
              compare(gap, rational(1n, 1_000_000n)) < 0 && compare(gap, rational(-1n, 1_000_000n)) > 0,
            ).toBe(true);
          });
        },
      ),
    );
  });

  it('ties go to the lower index', () => {
    expect(apportion(d('0.000001'), legWeights([d('2'), d('2')]))).toEqual([d('0.000001'), ZERO]);
  });

  it('refuses an amount with more than 6 decimals', () => {
    expect(() => apportion(d('0.0000001'), [rational(1n)])).toThrow(RangeError);
  });
});

describe('betExposure', () => {
  it('a single: stake × (odds − 1) / rate on its leg', () => {
    expect(
      betExposure({ stake: d('10'), totalOdds: d('2.5'), legOdds: [d('2.5')], eurRate: d('1') }),
    ).toEqual([d('15')]);
    expect(potentialWinEur({ stake: d('10.8'), totalOdds: d('2'), eurRate: d('1.08') })).toEqual(d('10'));
  });

  it('odds 1 win nothing', () => {
    expect(betExposure({ stake: d('10'), totalOdds: d('1'), legOdds: [d('1')], eurRate: d('1') })).toEqual([
      ZERO,
    ]);
  });

  it('per-unit win times the stake is the unrounded exposure', () => {
    fc.assert(
      fc.property(fc.array(arbOdds, { minLength: 1, maxLength: 5 }), (odds) => {
        const total = odds.reduce(mul, rational(1n));
        const per = winPerUnitStakeEur({ totalOdds: total, legOdds: odds, eurRate: d('1') });
        const sumPer = per.reduce(add, ZERO);
        expect(compare(sumPer, sub(total, rational(1n)))).toBe(0);
        expect(per.every((p) => compare(p, ZERO) >= 0)).toBe(true);
      }),
    );
  });

  it('per-unit win is (T − 1) × L_i / (Σ L × rate), one rational per leg, at any rate', () => {
    const rates = fc.constantFrom('1', '1.08', '0.853210', '7.45', '1.123456789');
    fc.assert(
      fc.property(fc.array(arbOdds, { minLength: 1, maxLength: 5 }), rates, (odds, rate) => {
        const total = odds.reduce(mul, rational(1n));
        const eurRate = d(rate);
        const per = winPerUnitStakeEur({ totalOdds: total, legOdds: odds, eurRate });
        const w = sub(total, rational(1n));
        const weights = legWeights(odds);
        if (compare(w, ZERO) <= 0) return;
        per.forEach((p, i) => {
          const l = weights[i] as Rational;
          // the formula as one rational: (T − 1)·L_i / (Σ L·rate), with L_i / Σ L the leg's weight
          const expected = rational(w.num * l.num * eurRate.den, w.den * l.den * eurRate.num);
          expect([p.num, p.den]).toEqual([expected.num, expected.den]);
        });
      }),
    );
  });
});
