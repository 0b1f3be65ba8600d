/** Player risk score (D40). */
import { describe, expect, it } from 'vitest';
import { add, compare, parseDecimal, rational, ZERO } from './decimal.js';
import { closingLineValue, riskScore } from './risk-score.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });

describe('risk score', () => {
  it('a leg at the close is worth 1/2; 10 % better 1; 10 % worse 0', () => {
    expect(closingLineValue(d('2'), d('2'))).toEqual(rational(1n, 2n));
    expect(closingLineValue(d('2.2'), d('2'))).toEqual(rational(1n));
    expect(closingLineValue(d('1.8'), d('2'))).toEqual(ZERO);
  });

  it('no bets: 0.5; shrunk towards 0.5 with few bets; a sharp player rises above 0.5 as bets add up', () => {
    expect(riskScore(ZERO, 0)).toEqual(rational(1n, 2n));
    const one = riskScore(rational(1n), 1);
    const many = riskScore(rational(50n), 50);
    expect(compare(one, rational(1n, 2n)) > 0 && compare(many, one) > 0).toBe(true);
    expect(compare(riskScore(add(ZERO, ZERO), 40), rational(1n, 2n)) < 0).toBe(true);
  });
});
