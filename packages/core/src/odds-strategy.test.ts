import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import { parseDecimal, type Rational } from './decimal.js';
import {
  applyOddsStrategy,
  type OddsStrategy,
  parseOddsStrategy,
  parseOddsTolerance,
} from './odds-strategy.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x' });
const selection = { sport_event_id: 'e1', market_id: 'm1', odd_id: 'o1' };
const apply = (strategy: OddsStrategy, requested: string, current: string, tolerance?: string) =>
  applyOddsStrategy({
    strategy,
    requested: d(requested),
    current: d(current),
    selection,
    ...(tolerance ? { tolerance: d(tolerance) } : {}),
  });

describe('odds acceptance strategies (spec 01)', () => {
  it('1: unchanged by default, or within the relative tolerance, at the current price', () => {
    expect(apply(1, '2.00', '2.00')).toEqual({ accepted: true, odds: d('2') });
    expect(apply(1, '2.00', '2.01').accepted).toBe(false);
    expect(apply(1, '2.00', '1.96', '0.02')).toEqual({ accepted: true, odds: d('1.96') });
    expect(apply(1, '2.00', '2.04', '0.02')).toEqual({ accepted: true, odds: d('2.04') });
    expect(apply(1, '2.00', '2.041', '0.02').accepted).toBe(false);
    expect(apply(1, '2.00', '1.959', '0.02').accepted).toBe(false);
  });

  it('2: only upwards (equal or higher)', () => {
    expect(apply(2, '2.00', '2.00')).toEqual({ accepted: true, odds: d('2') });
    expect(apply(2, '2.00', '2.50')).toEqual({ accepted: true, odds: d('2.5') });
    expect(apply(2, '2.00', '1.99')).toEqual({
      accepted: false,
      restriction: {
        type: 'selection_value',
        context: { ...selection, value: '1.990000', requested_value: '2.000000' },
      },
    });
  });

  it('3: any change', () => {
    expect(apply(3, '2.00', '1.01')).toEqual({ accepted: true, odds: d('1.01') });
    expect(apply(3, '2.00', '9.00')).toEqual({ accepted: true, odds: d('9') });
  });

  it('parses the strategy and the tolerance', () => {
    expect(parseOddsStrategy(2)).toBe(2);
    expectFieldError(() => parseOddsStrategy(4), 'odds_strategy');
    expectFieldError(() => parseOddsStrategy('1'), 'odds_strategy');
    expect(parseOddsTolerance('0.05')).toEqual(d('0.05'));
    expectFieldError(() => parseOddsTolerance('1.5'), 'odds_tolerance', 'fraction');
    expectFieldError(() => parseOddsTolerance('-0.1'), 'odds_tolerance', 'negative');
  });
});
