/**
 * The decimal operations against a straightforward reference: the implementation they replaced (a full bigint gcd
 * after every operation, docs/adr/0053-decimal-normalization.md), kept here verbatim. Every result must have the
 * reference's fields exactly (normalized values: equal values have equal fields), over random decimals of many
 * scales, negative values, zero, non-decimal rationals (thirds, sevenths…), large and small magnitudes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  abs,
  add,
  compare,
  div,
  eq,
  format,
  hasAtMostDecimals,
  max,
  min,
  mul,
  neg,
  parseDecimal,
  product,
  type Rational,
  rational,
  roundDown,
  roundHalfUp,
  sub,
  sum,
} from './decimal.js';

/** The reference: every operation builds its result through one full gcd normalization. */
namespace ref {
  function gcd(a: bigint, b: bigint): bigint {
    let x = a < 0n ? -a : a;
    let y = b < 0n ? -b : b;
    while (y !== 0n) {
      const t = x % y;
      x = y;
      y = t;
    }
    return x;
  }
  export function rat(num: bigint, den: bigint = 1n): Rational {
    if (den === 0n) throw new RangeError('zero denominator');
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    if (num === 0n) return { num, den: 1n };
    const g = gcd(num, den);
    return { num: num / g, den: den / g };
  }
  export const add = (a: Rational, b: Rational) => rat(a.num * b.den + b.num * a.den, a.den * b.den);
  export const sub = (a: Rational, b: Rational) => rat(a.num * b.den - b.num * a.den, a.den * b.den);
  export const mul = (a: Rational, b: Rational) => rat(a.num * b.num, a.den * b.den);
  export const div = (a: Rational, b: Rational) => rat(a.num * b.den, a.den * b.num);
  export const neg = (a: Rational) => rat(-a.num, a.den);
  export const compare = (a: Rational, b: Rational) => {
    const l = a.num * b.den;
    const r = b.num * a.den;
    return l < r ? -1 : l > r ? 1 : 0;
  };
  export function roundHalfUp(x: Rational, n: number): Rational {
    const scale = 10n ** BigInt(n);
    const a = x.num < 0n ? -x.num : x.num;
    const q = (2n * a * scale + x.den) / (2n * x.den);
    return rat(x.num < 0n ? -q : q, scale);
  }
  export function roundDown(x: Rational, n: number): Rational {
    const scale = 10n ** BigInt(n);
    return rat((x.num * scale) / x.den, scale);
  }
  export function format(x: Rational, decimals: number): string {
    const scale = 10n ** BigInt(decimals);
    const negative = x.num < 0n;
    const a = negative ? -x.num : x.num;
    const q = x.den === 1n ? a * scale : (2n * a * scale + x.den) / (2n * x.den);
    const digits = q.toString().padStart(decimals + 1, '0');
    const intPart = digits.slice(0, digits.length - decimals);
    const fracPart = digits.slice(digits.length - decimals);
    return `${negative && q !== 0n ? '-' : ''}${intPart}${decimals > 0 ? `.${fracPart}` : ''}`;
  }
}

/** The fields of a rational, for exact comparison (`toEqual` would also pass on a non-normalized equal value). */
const fields = (x: Rational) => [x.num, x.den];

/** A decimal string with up to `maxDecimals` decimals, of either sign, possibly zero, with trailing zeros at times. */
const arbDecimalString = (maxDecimals: number, maxInt = 10n ** 9n) =>
  fc
    .tuple(
      fc.boolean(),
      fc.bigInt({ min: 0n, max: maxInt }),
      fc.integer({ min: 0, max: maxDecimals }),
      fc.bigInt({ min: 0n, max: 10n ** BigInt(maxDecimals) - 1n }),
    )
    .map(([negative, int, d, frac]) => {
      const f = (frac % 10n ** BigInt(d)).toString().padStart(d, '0');
      const s = d === 0 ? `${int}` : `${int}.${f}`;
      return negative && s.replace(/[0.]/g, '') !== '' ? `-${s}` : s;
    });

/** Money (6), bet odds (2–6), feed odds (12), small and huge magnitudes, and zero. */
const arbDecimal: fc.Arbitrary<Rational> = fc
  .oneof(
    arbDecimalString(6),
    arbDecimalString(3, 100n),
    arbDecimalString(12, 1000n),
    arbDecimalString(2, 10n),
    arbDecimalString(18, 10n ** 18n - 1n),
    fc.constant('0'),
  )
  .map((s) => parseDecimal(s, { field: 'x', maxDecimals: 18, allowNegative: true }));

/** Rationals that are not decimals: a decimal divided by a small integer (thirds, sevenths, …) or by odds. */
const arbNonDecimal: fc.Arbitrary<Rational> = fc
  .tuple(arbDecimal, fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }))
  .map(([d, k, big]) => ref.rat(d.num * (big % 7n === 0n ? big : 1n), d.den * k * 3n));

const arbRational = fc.oneof(arbDecimal, arbDecimal, arbNonDecimal);

describe('decimal operations against the reference', () => {
  const runs = { numRuns: 3000 };

  it('parsing gives the reference normalization of digits / 10^decimals', () => {
    fc.assert(
      fc.property(arbDecimalString(18, 10n ** 18n - 1n), (s) => {
        const [, sign, int, frac = ''] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s) as RegExpExecArray;
        const digits = BigInt(int + frac);
        const expected = ref.rat(sign === '-' ? -digits : digits, 10n ** BigInt(frac.length));
        expect(fields(parseDecimal(s, { field: 'x', maxDecimals: 18, allowNegative: true }))).toEqual(
          fields(expected),
        );
      }),
      runs,
    );
  });

  it('add, sub, mul, div, neg, abs give the reference fields', () => {
    fc.assert(
      fc.property(arbRational, arbRational, (a, b) => {
        expect(fields(add(a, b))).toEqual(fields(ref.add(a, b)));
        expect(fields(sub(a, b))).toEqual(fields(ref.sub(a, b)));
        expect(fields(mul(a, b))).toEqual(fields(ref.mul(a, b)));
        expect(fields(neg(a))).toEqual(fields(ref.neg(a)));
        expect(fields(abs(a))).toEqual(fields(a.num < 0n ? ref.neg(a) : a));
        if (b.num !== 0n) expect(fields(div(a, b))).toEqual(fields(ref.div(a, b)));
        else expect(() => div(a, b)).toThrow(RangeError);
      }),
      runs,
    );
  });

  it('operands of one scale (the same denominator) give the reference fields', () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, fc.integer({ min: 0, max: 12 }), (a, b, k) => {
        // a and b at the same non-reduced scale 10^k, then normalized: often an equal denominator
        const x = ref.rat(a.num * 10n ** BigInt(k), a.den * 10n ** BigInt(k));
        const y = ref.rat(b.num, a.den);
        expect(fields(add(x, y))).toEqual(fields(ref.add(x, y)));
        expect(fields(sub(x, y))).toEqual(fields(ref.sub(x, y)));
        expect(fields(sub(x, x))).toEqual([0n, 1n]);
        expect(compare(x, y)).toBe(ref.compare(x, y));
      }),
      runs,
    );
  });

  it('products of many 12-decimal odds (large denominators) give the reference fields', () => {
    const odds = arbDecimalString(12, 50n).map((s) =>
      parseDecimal(s, { field: 'x', maxDecimals: 12, allowNegative: true }),
    );
    fc.assert(
      fc.property(fc.array(odds, { minLength: 1, maxLength: 12 }), arbDecimal, (xs, stake) => {
        const p = xs.reduce((acc, x) => ref.mul(acc, x), ref.rat(1n));
        expect(fields(product(xs))).toEqual(fields(p));
        expect(fields(mul(stake, product(xs)))).toEqual(fields(ref.mul(stake, p)));
        if (p.num !== 0n) expect(fields(div(stake, product(xs)))).toEqual(fields(ref.div(stake, p)));
        expect(fields(sum(xs))).toEqual(fields(xs.reduce((acc, x) => ref.add(acc, x), ref.rat(0n))));
      }),
      { numRuns: 500 },
    );
  });

  it('compare, eq, min, max agree with the reference', () => {
    fc.assert(
      fc.property(arbRational, arbRational, (a, b) => {
        const c = ref.compare(a, b);
        expect(compare(a, b)).toBe(c);
        expect(eq(a, b)).toBe(c === 0);
        expect(eq(a, ref.rat(a.num * 7n, a.den * 7n))).toBe(true);
        expect(fields(min(a, b))).toEqual(fields(c <= 0 ? a : b));
        expect(fields(max(a, b))).toEqual(fields(c >= 0 ? a : b));
      }),
      runs,
    );
  });

  it('roundHalfUp, roundDown, format, hasAtMostDecimals agree with the reference', () => {
    fc.assert(
      fc.property(arbRational, fc.integer({ min: 0, max: 14 }), (x, n) => {
        expect(fields(roundHalfUp(x, n))).toEqual(fields(ref.roundHalfUp(x, n)));
        expect(fields(roundDown(x, n))).toEqual(fields(ref.roundDown(x, n)));
        expect(format(x, n)).toBe(ref.format(x, n));
        expect(hasAtMostDecimals(x, n)).toBe(eq(ref.roundDown(x, n), x));
      }),
      runs,
    );
  });

  it('halves round away from zero and exact values come back unchanged', () => {
    for (const [s, n, up, down] of [
      ['2.5', 0, '3', '2'],
      ['-2.5', 0, '-3', '-2'],
      ['0.0005', 3, '0.001', '0'],
      ['-0.0005', 3, '-0.001', '0'],
      ['1.850000', 6, '1.85', '1.85'],
      ['0', 2, '0', '0'],
    ] as const) {
      const x = parseDecimal(s, { field: 'x', allowNegative: true });
      const d = (v: string) => parseDecimal(v, { field: 'x', allowNegative: true });
      expect(fields(roundHalfUp(x, n))).toEqual(fields(d(up)));
      expect(fields(roundDown(x, n))).toEqual(fields(d(down)));
    }
    expect(fields(rational(7n, -14n))).toEqual([-1n, 2n]);
    expect(format(rational(-1n, 3000n), 3)).toBe('0.000');
  });
});
