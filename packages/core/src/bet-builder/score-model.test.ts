import { describe, expect, it } from 'vitest';
import {
  CELL_SCALE,
  dixonColesTau,
  expNeg,
  MAX_GOALS,
  poissonPmf,
  rhoRange,
  scoreMatrix,
  scoreProbabilities,
} from './score-model.js';

describe('expNeg', () => {
  it.each([0, 1e-9, 0.3, 1, 1.5, 2.75, 5.99, 12])('e^-%s matches Math.exp to 1e-15 relative', (x) => {
    expect(Math.abs(expNeg(x) / Math.exp(-x) - 1)).toBeLessThan(1e-14);
  });

  it('refuses a negative or non-finite argument', () => {
    expect(() => expNeg(-1)).toThrow(RangeError);
    expect(() => expNeg(Number.NaN)).toThrow(RangeError);
    expect(() => expNeg(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('poissonPmf', () => {
  it('is e^-λ λ^k / k! for every k', () => {
    const pmf = poissonPmf(1.7);
    let fact = 1;
    for (let k = 0; k <= MAX_GOALS; k++) {
      if (k > 0) fact *= k;
      expect(pmf[k]).toBeCloseTo((Math.exp(-1.7) * 1.7 ** k) / fact, 15);
    }
  });
});

describe('Dixon–Coles', () => {
  it('τ moves mass only among 0:0, 0:1, 1:0, 1:1 and keeps the total (the 1997 paper, eq. 4.2)', () => {
    const p = { home: 1.4, away: 1.1, rho: -0.12 };
    expect(dixonColesTau(0, 0, p)).toBeCloseTo(1 - 1.4 * 1.1 * -0.12, 15);
    expect(dixonColesTau(0, 1, p)).toBeCloseTo(1 + 1.4 * -0.12, 15);
    expect(dixonColesTau(1, 0, p)).toBeCloseTo(1 + 1.1 * -0.12, 15);
    expect(dixonColesTau(1, 1, p)).toBeCloseTo(1.12, 15);
    expect(dixonColesTau(2, 1, p)).toBe(1);
    const sum = (m: number[][]) => m.flat().reduce((s, v) => s + v, 0);
    expect(sum(scoreProbabilities(p))).toBeCloseTo(sum(scoreProbabilities({ ...p, rho: 0 })), 14);
  });

  it('bounds ρ so that every τ stays non-negative', () => {
    const r = rhoRange(3, 2.5);
    expect(r.max).toBeLessThanOrEqual(1 / (3 * 2.5));
    expect(r.min).toBeGreaterThanOrEqual(-1 / 3);
    expect(() => scoreMatrix({ home: 3, away: 2.5, rho: 0.3 })).toThrow(RangeError);
    expect(() => scoreMatrix({ home: 0.01, away: 1, rho: 0 })).toThrow(RangeError);
  });
});

describe('scoreMatrix', () => {
  it('quantizes each cell to 1e-15 and sums its total exactly', () => {
    const m = scoreMatrix({ home: 1.6, away: 1.2, rho: -0.1 });
    const floats = scoreProbabilities(m.params);
    let total = 0n;
    for (let h = 0; h <= MAX_GOALS; h++)
      for (let a = 0; a <= MAX_GOALS; a++) {
        expect(m.cells[h]![a]).toBe(BigInt(Math.round(floats[h]![a]! * CELL_SCALE)));
        total += m.cells[h]![a]!;
      }
    expect(m.total).toBe(total);
    // the tail beyond 15 goals a side is tiny at these means, and the total is 1 within it
    expect(m.tail).toBeLessThan(1e-9);
    expect(Math.abs(Number(m.total) / CELL_SCALE - 1)).toBeLessThan(1e-9);
  });

  it('is deterministic: the same parameters give the same cells', () => {
    const p = { home: 2.05, away: 0.7, rho: -0.05 };
    expect(scoreMatrix(p)).toEqual(scoreMatrix({ ...p }));
  });
});
