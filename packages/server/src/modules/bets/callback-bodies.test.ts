import { formatMoney, parseDecimal } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import { money6, odds6, sixDecimalsOf } from './callback-bodies.js';

const exact = (v: string) => formatMoney(parseDecimal(v, { field: 'amount', maxDecimals: 12 }));

describe('six decimals of a numeric column', () => {
  it('writes what the exact rational path writes, for every length of decimals and of the integer part', () => {
    const values = ['0', '1', '10', '123456789012345678', '0.5', '1.85', '2.000001', '7.123456', '0.000000'];
    for (let d = 1; d <= 12; d++) {
      values.push(
        `1.${'0'.repeat(d)}`,
        `3.${'9'.repeat(d)}`,
        `12.${'1'.padStart(d, '0')}`,
        `0.${'5'.padEnd(d, '0')}`,
      );
    }
    for (const v of values) {
      expect(money6(v)).toBe(exact(v));
      expect(odds6(v)).toBe(exact(v));
    }
  });

  it('takes the padding path only where no rounding is needed', () => {
    expect(sixDecimalsOf('1.850000000000')).toBe('1.850000');
    expect(sixDecimalsOf('1.5')).toBe('1.500000');
    expect(sixDecimalsOf('42')).toBe('42.000000');
    // a digit past the sixth decimal: rounded half-up by the exact path
    expect(sixDecimalsOf('1.0000005')).toBeUndefined();
    expect(odds6('1.0000005')).toBe('1.000001');
    expect(money6('2.4999994')).toBe('2.499999');
  });

  it('leaves what parseDecimal refuses to parseDecimal', () => {
    for (const bad of ['-1', '01', '1.', '.5', '+1', '1e3', '', ' 1', '1.1234567890123', '1'.repeat(19)]) {
      expect(sixDecimalsOf(bad)).toBeUndefined();
      expect(() => money6(bad)).toThrow();
    }
  });
});
