import { describe, expect, it } from 'vitest';
import {
  calibrateGoalModel,
  impliedProbabilities,
  inPlayPrices,
  outcomeProbabilities,
  overround,
  priceOf,
} from './poisson.js';

describe('the in-play Poisson model', () => {
  it('removes the margin proportionally and measures the overround', () => {
    const [h, d, a] = impliedProbabilities(['2.0', '4.0', '4.0']);
    expect([h, d, a]).toEqual([0.5, 0.25, 0.25]);
    expect(overround(['1.9', '1.9'])).toBeCloseTo(2 / 1.9, 12);
    expect(() => impliedProbabilities(['1.0', '2'])).toThrow(/above 1/);
  });

  it('gives the textbook values for two teams of one expected goal each', () => {
    // P(draw) = e^-2 · I0(2) = 0.135335283 × 2.279585302; P(over 2.5) = 1 − e^-2 (1 + 2 + 2)
    const p = outcomeProbabilities({ home: 1, away: 1 }, 1, { home: 0, away: 0 });
    expect(p.draw).toBeCloseTo(0.3085083, 6);
    expect(p.home).toBeCloseTo((1 - 0.3085083) / 2, 6);
    expect(p.away).toBeCloseTo(p.home, 12);
    expect(p.over).toBeCloseTo(1 - 5 * Math.exp(-2), 9);
    expect(p.home + p.draw + p.away).toBeCloseTo(1, 12);
  });

  it('at the final whistle the score decides: 1-0 is a home win for certain', () => {
    const p = outcomeProbabilities({ home: 1.6, away: 1.1 }, 0, { home: 1, away: 0 });
    expect(p).toEqual({ home: 1, draw: 0, away: 0, over: 0, under: 1 });
    // three goals in: over 2.5 is won whatever the time
    expect(outcomeProbabilities({ home: 1.6, away: 1.1 }, 0.5, { home: 2, away: 1 }).over).toBe(1);
    // a late lead is worth more than an early one
    const early = outcomeProbabilities({ home: 1.3, away: 1.3 }, 0.9, { home: 1, away: 0 }).home;
    const late = outcomeProbabilities({ home: 1.3, away: 1.3 }, 0.1, { home: 1, away: 0 }).home;
    expect(late).toBeGreaterThan(early);
    expect(late).toBeCloseTo(0.892, 3); // P(away scores no more than home in 0.13 + 0.13 expected goals)
  });

  it('calibrates to the pre-match odds: at kick-off the model gives back their over and home − away exactly', () => {
    // Burnley v Man City, 11 Aug 2023, bet365 closing: 9.0 / 5.25 / 1.33, over/under 2.5 at 1.67 / 2.2
    const m = calibrateGoalModel(
      { home: '9.0', draw: '5.25', away: '1.33' },
      { line: '2.5', over: '1.67', under: '2.2' },
    );
    const [pH, pD, pA] = impliedProbabilities(['9.0', '5.25', '1.33']) as [number, number, number];
    const [pO] = impliedProbabilities(['1.67', '2.2']) as [number];
    const k = outcomeProbabilities(m, 1, { home: 0, away: 0 });
    expect(k.over).toBeCloseTo(pO, 9);
    expect(k.home - k.away).toBeCloseTo(pH - pA, 9);
    // the draw is the model's own: within two points of the market's
    expect(Math.abs(k.draw - pD)).toBeLessThan(0.02);
    expect(m.away).toBeGreaterThan(2 * m.home);
    // an even game with the over at evens: ~2.67 goals in all, split evenly
    const even = calibrateGoalModel(
      { home: '2.9', draw: '3.4', away: '2.9' },
      { line: '2.5', over: '2.0', under: '2.0' },
    );
    expect(even.home).toBeCloseTo(even.away, 9);
    expect(even.home + even.away).toBeCloseTo(2.674, 3);
  });

  it('prices with the book overround, 2 decimals, within 1.01..1000, as feed values', () => {
    expect(priceOf(0.5, 1.05)).toBe('1.900000000000'); // 1 / 0.525 = 1.90476…
    expect(priceOf(0.25, 1)).toBe('4.000000000000');
    expect(priceOf(1, 1.05)).toBe('1.010000000000');
    expect(priceOf(0, 1.05)).toBe('1000.000000000000');
    expect(priceOf(1 / 2.145, 1)).toBe('2.150000000000'); // half up
    // half-time at 0-0, one goal expected per team per match: 0.5 each to come. P(draw) = e^-1 · I0(1) =
    // 0.367879 × 1.266066 = 0.465760, home = away = 0.267120 → 1 / (0.267120 × 1.05) = 3.5654; over 2.5 needs 3
    // goals of Poisson(1): 1 − e^-1 (1 + 1 + 1/2) = 0.080301 → 11.86; under 0.919699 → 1.0355 → 1.04
    expect(
      inPlayPrices({ home: 1, away: 1 }, 0.5, { home: 0, away: 0 }, { '1x2': 1.05, total: 1.05 }),
    ).toEqual({
      '1x2': { home: '3.570000000000', draw: '2.040000000000', away: '3.570000000000' },
      total: { over: '11.860000000000', under: '1.040000000000' },
    });
    const prices = inPlayPrices({ home: 1, away: 1 }, 0, { home: 1, away: 0 }, { '1x2': 1.05, total: 1.05 });
    expect(prices).toEqual({
      '1x2': { home: '1.010000000000', draw: '1000.000000000000', away: '1000.000000000000' },
      total: { over: '1000.000000000000', under: '1.010000000000' },
    });
  });
});
