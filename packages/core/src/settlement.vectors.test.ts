/**
 * Every case of the settlement vectors (../test-vectors/settlement.json: bets with their legs' odds, statuses and
 * dead heats, and the exact payouts expected) as a table-driven test, through the bet calculator and the core
 * functions.
 */
import { describe, expect, it } from 'vitest';
import vectors from '../test-vectors/settlement.json';
import { binomial, combinationCount, systemCombinations } from './bet-types.js';
import { calculateBet } from './calc.js';
import { compare, formatMoney, parseMoney } from './decimal.js';
import { insuranceRefund, parseInsuranceRule } from './insurance.js';

interface VectorLeg {
  odds: string;
  status: number;
  dead_heat?: string;
}
interface BetVector {
  id: string;
  bet_type: string;
  stake: string;
  system_sizes?: number[];
  legs: VectorLeg[];
  payout: string;
  settle_type?: number;
  freebet_amount?: string;
  freebet_credit?: string;
}

describe('settlement vectors: bets', () => {
  it.each((vectors.bets as BetVector[]).map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const { payout, settle_type, ...bet } = v;
    const out = calculateBet(bet);
    expect(out.payout).toBe(payout);
    expect(out.settle_amount).toBe(payout);
    expect(out.settle_type).toBe(settle_type);
    expect(out.insurance_refund).toBe('0.000000');
  });
});

describe('settlement vectors: freebets', () => {
  it.each((vectors.freebets as BetVector[]).map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const { payout, freebet_credit, ...bet } = v;
    const out = calculateBet(bet);
    expect(out.payout).toBe(payout);
    expect(out.settle_amount).toBe(freebet_credit);
    // D3 for a freebet bet: payout before deduction vs the freebet amount
    const c = compare(parseMoney(payout, 'payout'), parseMoney(v.freebet_amount, 'freebet_amount'));
    expect(out.settle_type).toBe(c > 0 ? 1 : c === 0 ? 2 : 3);
  });
});

describe('settlement vectors: insurance', () => {
  it.each(vectors.insurance.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const refund = insuranceRefund(parseMoney(v.stake, 'stake'), parseInsuranceRule(v.rule));
    expect(formatMoney(refund)).toBe(v.refund_amount);
  });

  it.each(
    vectors.insurance.map((v) => [v.id, v] as const),
  )('%s through the calculator on a lost single', (_id, v) => {
    const out = calculateBet({
      bet_type: 'single',
      stake: v.stake,
      legs: [{ odds: '2.0', status: 2 }],
      insurance: v.rule,
    });
    expect(out.settle_type).toBe(3);
    expect(out.insurance_refund).toBe(v.refund_amount);
  });
});

describe('settlement vectors: system combination counts', () => {
  const range = (from: number, to: number): number[] =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const shapes: Record<string, { n: number; sizes: number[] }> = {
    'trixie [2,3] of 3': { n: 3, sizes: [2, 3] },
    'yankee [2,3,4] of 4': { n: 4, sizes: [2, 3, 4] },
    'canadian [2..5] of 5': { n: 5, sizes: range(2, 5) },
    'heinz [2..6] of 6': { n: 6, sizes: range(2, 6) },
  };
  it('covers every named system of the vectors', () => {
    expect(Object.keys(shapes).sort()).toEqual(Object.keys(vectors.system_combination_counts).sort());
  });
  it.each(Object.entries(vectors.system_combination_counts))('%s = %i', (name, count) => {
    const { n, sizes } = shapes[name] ?? { n: 0, sizes: [] };
    expect(combinationCount(n, sizes)).toBe(count);
    expect(systemCombinations(n, sizes)).toHaveLength(count);
    expect(sizes.reduce((a, k) => a + binomial(n, k), 0)).toBe(count);
  });
});
