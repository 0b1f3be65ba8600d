import { parseDecimal } from '@bookie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECIMAL_PATTERN, decimalPattern, MONEY_PATTERN } from './decimal.js';

/** Whether core's parser takes `s` as a non-negative decimal with at most `maxDecimals` decimals. */
function parses(s: string, maxDecimals: number): boolean {
  try {
    parseDecimal(s, { field: 'x', maxDecimals });
    return true;
  } catch {
    return false;
  }
}

describe('the decimal pattern of the schemas', () => {
  it('takes plain decimals and refuses leading zeros, signs, exponents, spaces and too many decimals', () => {
    const money = new RegExp(MONEY_PATTERN, 'u');
    for (const ok of ['0', '0.5', '10', '10.50', '1.850000', '123456789012345678.123456']) {
      expect(money.test(ok), ok).toBe(true);
    }
    for (const bad of [
      '007.5',
      '01',
      '00',
      '00.5',
      '-1',
      '+1',
      '1e3',
      '1E-2',
      ' 1',
      '1 ',
      '.5',
      '5.',
      '1.1234567',
      '1234567890123456789',
      'NaN',
      'Infinity',
      '０',
      '',
    ]) {
      expect(money.test(bad), bad).toBe(false);
    }
    expect(new RegExp(DECIMAL_PATTERN, 'u').test('1.123456789012')).toBe(true);
    expect(new RegExp(DECIMAL_PATTERN, 'u').test('1.1234567890123')).toBe(false);
  });

  it('agrees with parseDecimal of @bookie/core on every string (fast-check)', () => {
    const chars = fc.constantFrom(...'0123456789.-+eE x'.split(''));
    for (const maxDecimals of [6, 12]) {
      const re = new RegExp(decimalPattern(maxDecimals), 'u');
      fc.assert(
        fc.property(fc.array(chars, { maxLength: 24 }), (cs) => {
          const s = cs.join('');
          expect(re.test(s), JSON.stringify(s)).toBe(parses(s, maxDecimals));
        }),
        { numRuns: 3000, seed: 30 },
      );
      for (const s of [
        '0',
        '0.0',
        '10',
        '01',
        '1'.repeat(18),
        '1'.repeat(19),
        `1.${'0'.repeat(maxDecimals + 1)}`,
      ]) {
        expect(re.test(s), s).toBe(parses(s, maxDecimals));
      }
    }
  });
});
