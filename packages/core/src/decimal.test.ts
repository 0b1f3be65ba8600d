import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import {
  abs,
  add,
  compare,
  div,
  eq,
  format,
  formatFeedOddValue,
  formatMoney,
  hasAtMostDecimals,
  max,
  min,
  mul,
  neg,
  ONE,
  parseDecimal,
  parseFeedOddValue,
  parseMoney,
  parseOdds,
  parseStake,
  product,
  type Rational,
  rational,
  roundDown,
  roundHalfUp,
  sub,
  sum,
  ZERO,
} from './decimal.js';

const r = (s: string): Rational => parseDecimal(s, { field: 'x', allowNegative: true, maxDecimals: 30 });

describe('parseDecimal', () => {
  it.each([
    ['10', 10n, 1n],
    ['1.850000', 37n, 20n],
    ['0.5', 1n, 2n],
    ['0', 0n, 1n],
    ['123456789012345678.123456789012', 123456789012345678123456789012n, 10n ** 12n],
  ])('parses %s exactly', (s, num, den) => {
    const v = parseDecimal(s, { field: 'x' });
    expect(v).toEqual(rational(num, den));
  });

  it('parses negatives only when allowed', () => {
    expect(parseDecimal('-2.5', { field: 'x', allowNegative: true })).toEqual(rational(-5n, 2n));
    expectFieldError(() => parseDecimal('-2.5', { field: 'stake' }), 'stake', 'negative');
    expectFieldError(() => parseDecimal('-0', { field: 'stake' }), 'stake', 'negative');
  });

  it.each([
    ['1e3', 'exponent'],
    ['1E-2', 'exponent'],
    ['2.5e1', 'exponent'],
    ['NaN', 'finite'],
    ['nan', 'finite'],
    ['Infinity', 'finite'],
    ['-Infinity', 'finite'],
    ['', 'empty'],
    [' 1', 'spaces'],
    ['1 ', 'spaces'],
    ['1 000', 'spaces'],
    ['+1', '"+"'],
    ['.5', 'decimal string'],
    ['5.', 'decimal string'],
    ['1,5', 'decimal string'],
    ['0x10', 'decimal string'],
    ['1.2.3', 'decimal string'],
    ['--1', 'decimal string'],
    ['١٢', 'decimal string'],
  ])('rejects %j (%s) naming the field', (s, part) => {
    expectFieldError(
      () => parseDecimal(s, { field: 'legs[1].odds', allowNegative: true }),
      'legs[1].odds',
      part,
    );
  });

  it.each([
    [10, 'number'],
    [null, 'null'],
    [undefined, 'undefined'],
    [true, 'boolean'],
    [{}, 'object'],
  ])('rejects the non-string %j', (v, part) => {
    expectFieldError(() => parseDecimal(v, { field: 'stake' }), 'stake', part);
  });

  it('rejects more decimals than allowed', () => {
    expectFieldError(
      () => parseDecimal('1.1234567', { field: 'stake', maxDecimals: 6 }),
      'stake',
      'at most 6 decimals',
    );
    expect(parseDecimal('1.123456', { field: 'stake', maxDecimals: 6 })).toEqual(
      rational(1123456n, 1000000n),
    );
    expectFieldError(() => parseDecimal('1.5', { field: 'n', maxDecimals: 0 }), 'n', 'at most 0 decimals');
  });

  it('rejects zero when not allowed and oversized integers', () => {
    expectFieldError(() => parseDecimal('0.000', { field: 'amount', allowZero: false }), 'amount', 'zero');
    expectFieldError(() => parseDecimal('1'.repeat(19), { field: 'amount' }), 'amount', 'digits');
    expect(parseDecimal('9'.repeat(18), { field: 'amount' }).num).toBe(10n ** 18n - 1n);
    expectFieldError(
      () => parseDecimal(`000${'9'.repeat(18)}`, { field: 'amount' }),
      'amount',
      'leading zeros',
    );
  });
});

describe('wire parsers', () => {
  it('money: ≤ 6 decimals, non-negative', () => {
    expect(parseMoney('10.000000', 'amount')).toEqual(rational(10n));
    expect(parseMoney('0', 'amount')).toEqual(ZERO);
    expectFieldError(() => parseMoney('0', 'amount', { allowZero: false }), 'amount', 'zero');
    expectFieldError(() => parseMoney('1.0000001', 'amount'), 'amount', '6 decimals');
    expectFieldError(() => parseMoney('-1', 'amount'), 'amount', 'negative');
  });

  it('stake: positive money; a negative or zero stake names the field', () => {
    expect(parseStake('10')).toEqual(rational(10n));
    expectFieldError(() => parseStake('-10'), 'stake', 'negative');
    expectFieldError(() => parseStake('0'), 'stake', 'zero');
    expectFieldError(() => parseStake('1e2', 'bets[2].stake'), 'bets[2].stake', 'exponent');
  });

  it('refuses leading zeros', () => {
    for (const bad of ['007.5', '01', '00', '-01.5', '00.5']) {
      expectFieldError(
        () => parseDecimal(bad, { field: 'stake', allowNegative: true }),
        'stake',
        'leading zeros',
      );
    }
    expect(parseDecimal('0.5', { field: 'x' })).toEqual(rational(1n, 2n));
    expect(parseDecimal('0', { field: 'x' })).toEqual(ZERO);
    expect(parseDecimal('100.05', { field: 'x' })).toEqual(rational(2001n, 20n));
  });

  it('odds: above 1; zero, below 1 and exactly 1 rejected (exactly 1 only with allowOne)', () => {
    expectFieldError(() => parseOdds('1.0', 'legs[1].odds'), 'legs[1].odds', 'above 1');
    expectFieldError(() => parseOdds('1', 'odds'), 'odds', 'above 1');
    expect(parseOdds('1.0', 'legs[1].odds', { allowOne: true })).toEqual(ONE);
    expect(parseOdds('1.000001', 'odds')).toEqual(rational(1000001n, 1000000n));
    expect(parseOdds('1.850000', 'odds')).toEqual(rational(37n, 20n));
    expectFieldError(() => parseOdds('0', 'legs[0].odds'), 'legs[0].odds', 'zero');
    expectFieldError(() => parseOdds('0.000', 'legs[0].odds'), 'legs[0].odds', 'zero');
    expectFieldError(() => parseOdds('0.99', 'legs[2].odds'), 'legs[2].odds', 'above 1');
    expectFieldError(() => parseOdds('-1.5', 'legs[0].odds'), 'legs[0].odds', 'negative');
    expectFieldError(() => parseOdds('1.1234567', 'odds'), 'odds', '6 decimals');
    expect(parseOdds('1.1234567', 'odds', { maxDecimals: 12 })).toEqual(rational(11234567n, 10000000n));
  });

  it('feed odd values: 12 decimals', () => {
    expect(parseFeedOddValue('1.850000000000', 'value')).toEqual(rational(37n, 20n));
    expectFieldError(() => parseFeedOddValue('1.8500000000001', 'value'), 'value', '12 decimals');
    expect(formatFeedOddValue(rational(37n, 20n))).toBe('1.850000000000');
  });
});

describe('arithmetic', () => {
  it('is exact', () => {
    expect(add(r('0.1'), r('0.2'))).toEqual(r('0.3'));
    expect(sub(r('0.3'), r('0.1'))).toEqual(r('0.2'));
    expect(mul(r('1.2345'), r('1.5'))).toEqual(r('1.85175'));
    expect(div(r('1'), r('3'))).toEqual(rational(1n, 3n));
    expect(mul(div(ONE, r('3')), r('3'))).toEqual(ONE);
    expect(neg(r('2'))).toEqual(r('-2'));
    expect(abs(r('-2'))).toEqual(r('2'));
    expect(sum([r('1'), r('2'), r('3.5')])).toEqual(r('6.5'));
    expect(product([r('2'), r('3'), r('0.5')])).toEqual(r('3'));
    expect(sum([])).toEqual(ZERO);
    expect(product([])).toEqual(ONE);
  });

  it('compares, min and max', () => {
    expect(compare(r('1.5'), r('1.50'))).toBe(0);
    expect(compare(r('-1'), r('0.1'))).toBe(-1);
    expect(compare(rational(1n, 3n), r('0.333333'))).toBe(1);
    expect(eq(r('2.000'), r('2'))).toBe(true);
    expect(min(r('2'), r('3'))).toEqual(r('2'));
    expect(max(r('2'), r('3'))).toEqual(r('3'));
  });

  it('normalizes and guards zero denominators', () => {
    expect(rational(4n, -8n)).toEqual({ num: -1n, den: 2n });
    expect(() => rational(1n, 0n)).toThrow(RangeError);
    expect(() => div(ONE, ZERO)).toThrow(RangeError);
  });
});

describe('rounding and format', () => {
  it.each([
    ['1.0005', 3, '1.001'],
    ['1.85175', 3, '1.852'],
    ['2.5', 0, '3'],
    ['-2.5', 0, '-3'],
    ['-1.0005', 3, '-1.001'],
    ['1.0004999', 3, '1'],
    ['0.0004', 3, '0'],
  ])('roundHalfUp(%s, %i) = %s', (x, n, want) => {
    expect(roundHalfUp(r(x), n)).toEqual(r(want));
  });

  it('roundDown truncates toward zero', () => {
    expect(roundDown(r('1.9999'), 3)).toEqual(r('1.999'));
    expect(roundDown(r('-1.9999'), 3)).toEqual(r('-1.999'));
  });

  it.each([
    ['18.5', 6, '18.500000'],
    ['0', 6, '0.000000'],
    ['-0.0000001', 6, '0.000000'],
    ['-0.0000005', 6, '-0.000001'],
    ['12', 0, '12'],
    ['0.05', 1, '0.1'],
    ['50000', 6, '50000.000000'],
  ])('format(%s, %i) = %s', (x, n, want) => {
    expect(format(r(x), n)).toBe(want);
  });

  it('formats repeating fractions half-up', () => {
    expect(formatMoney(rational(2n, 3n))).toBe('0.666667');
    expect(formatMoney(rational(-2n, 3n))).toBe('-0.666667');
    expect(hasAtMostDecimals(rational(1n, 8n), 3)).toBe(true);
    expect(hasAtMostDecimals(rational(1n, 3n), 12)).toBe(false);
  });
});

const arbDecimal = (decimals: number) =>
  fc
    .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: decimals }))
    .map(([n, k]) => rational(n, 10n ** BigInt(k)));

describe('properties', () => {
  it('parse(format(x)) = x for every x with at most 12 decimals', () => {
    fc.assert(
      fc.property(arbDecimal(12), fc.integer({ min: 12, max: 20 }), (x, d) => {
        const s = format(x, d);
        expect(
          parseDecimal(s, { field: 'x', allowNegative: true, maxDecimals: d, maxIntegerDigits: 30 }),
        ).toEqual(x);
      }),
    );
  });

  it('parse(format(x, n)) = roundHalfUp(x, n) for any rational', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 8 }),
        (n, d, k) => {
          const x = rational(n, d);
          const parsed = parseDecimal(format(x, k), {
            field: 'x',
            allowNegative: true,
            maxDecimals: k,
            maxIntegerDigits: 30,
          });
          expect(parsed).toEqual(roundHalfUp(x, k));
          expect(compare(abs(sub(parsed, x)), rational(1n, 2n * 10n ** BigInt(k)))).toBeLessThanOrEqual(0);
        },
      ),
    );
  });

  it('add/sub/mul/div agree', () => {
    fc.assert(
      fc.property(arbDecimal(6), arbDecimal(6), (a, b) => {
        expect(sub(add(a, b), b)).toEqual(a);
        if (b.num !== 0n) expect(div(mul(a, b), b)).toEqual(a);
        // antisymmetry (written as a sum: -0 and 0 differ under toBe when a = b)
        expect(compare(a, b) + compare(b, a)).toBe(0);
      }),
    );
  });
});
