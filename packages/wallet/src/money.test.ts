import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMicros, toMicros } from './money.js';

describe('money in micro-units', () => {
  it('parses decimal strings exactly and writes 6 decimals', () => {
    expect(toMicros('10.000000')).toBe(10_000_000n);
    expect(toMicros('0.000001')).toBe(1n);
    expect(toMicros('123456789012.5')).toBe(123_456_789_012_500_000n);
    expect(formatMicros(18_500_000n)).toBe('18.500000');
    expect(formatMicros(-1n)).toBe('-0.000001');
  });
  it.each(['1e3', '-1.000000', '0.0000001', '1.', '', ' 1', 'NaN'])('rejects %j', (s) => {
    expect(() => toMicros(s)).toThrow(/amount/);
  });
  it('rejects zero when asked and numbers always', () => {
    expect(() => toMicros('0.000000', 'amount', { allowZero: false })).toThrow(/zero/);
    expect(() => toMicros(5)).toThrow(/decimal string/);
  });
  it('round-trips every micro amount', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 17n }), (m) => toMicros(formatMicros(m)) === m));
  });
});
