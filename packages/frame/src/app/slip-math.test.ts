import { describe, expect, it } from 'vitest';
import { slipFigures } from './slip-math.js';

describe('the bet slip figures, exact', () => {
  it('multiplies an express and pays the stake times the total odds', () => {
    const f = slipFigures('express', '10', ['2.10', '1.85'], []);
    expect(f.payout).toBe('38.850000');
  });
  it('shares a system stake over its combinations and pays every combination at most', () => {
    // 2 of 3 at 2.0 each: three doubles of 4.0; 9 / 3 = 3 per combination; 3 × 4 × 3 = 36
    const f = slipFigures('system', '9', ['2', '2', '2'], [2]);
    expect(f.combinations).toBe(3);
    expect(f.perCombination).toBe('3.000000');
    expect(f.payout).toBe('36.000000');
    // three doubles at 2, 1.5, 3: 3 + 6 + 4.5 = 13.5 per unit; 4 / 3 per double → 18
    const doubles = slipFigures('system', '4', ['2', '1.5', '3'], [2]);
    expect(doubles.perCombination).toBe('1.333333');
    expect(doubles.payout).toBe('18.000000');
  });
  it('pays singles per selection, and a freebet without its stake', () => {
    expect(slipFigures('single', '5,5', ['2', '3'], []).payout).toBe('27.500000');
    expect(slipFigures('single', '5', ['2.4'], [], true).freebetWin).toBe('7.000000');
  });
  it('shows nothing for a stake being typed', () => {
    expect(slipFigures('express', '1.', ['2', '2'], []).payout).toBeUndefined();
    expect(slipFigures('express', '', ['2', '2'], []).totalOdds).toBeDefined();
  });
});
