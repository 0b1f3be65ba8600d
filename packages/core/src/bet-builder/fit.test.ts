import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ONE, parseOdds, sum } from '../decimal.js';
import { fitScoreModel, marginFreeProbabilities, modelProbability, toFloat } from './fit.js';
import { rhoRange } from './score-model.js';

/** The stated fit tolerance: with as many targets as parameters the fit lands within 1e-9 of each. */
const TOLERANCE = 1e-9;

describe('marginFreeProbabilities', () => {
  it('removes the margin proportionally and exactly (DECISIONS D41)', () => {
    const odds = ['2.10', '3.40', '3.60'].map((o) => parseOdds(o, 'odds'));
    const p = marginFreeProbabilities(odds);
    expect(sum(p)).toEqual(ONE);
    const inv = [1 / 2.1, 1 / 3.4, 1 / 3.6];
    const book = inv.reduce((a, b) => a + b);
    for (const [i, x] of p.entries()) expect(toFloat(x)).toBeCloseTo(inv[i]! / book, 15);
  });

  it('refuses odds of 1 or below', () => {
    expect(() => marginFreeProbabilities([ONE])).toThrow(RangeError);
    expect(() => marginFreeProbabilities([])).toThrow(RangeError);
  });
});

describe('fitScoreModel', () => {
  it('fits Dixon–Coles to a 1X2 and a 2.5 total within the stated tolerance', () => {
    const fit = fitScoreModel({
      oneXTwo: { home: 0.45, draw: 0.28, away: 0.27 },
      totals: [{ line: 2.5, over: 0.5 }],
    });
    expect(fit.kind).toBe('dixon_coles');
    expect(fit.maxError).toBeLessThan(TOLERANCE);
    expect(fit.params.rho).toBeLessThan(0); // more draws than independent Poisson gives: the published sign
    expect(modelProbability(fit.params, (s) => s.home + s.away > 2.5)).toBeCloseTo(0.5, 9);
    expect(modelProbability(fit.params, (s) => s.home === s.away)).toBeCloseTo(0.28, 9);
  });

  it('fits independent Poisson to a 1X2 alone', () => {
    const fit = fitScoreModel({ oneXTwo: { home: 0.6, draw: 0.22, away: 0.18 }, totals: [] });
    expect(fit.kind).toBe('poisson');
    expect(fit.params.rho).toBe(0);
    expect(Math.abs(fit.targets[0]!.error)).toBeLessThan(TOLERANCE);
    expect(Math.abs(fit.targets[1]!.error)).toBeLessThan(TOLERANCE);
  });

  it('is deterministic', () => {
    const input = { oneXTwo: { home: 0.31, draw: 0.27, away: 0.42 }, totals: [{ line: 2.5, over: 0.55 }] };
    expect(fitScoreModel(input).params).toEqual(fitScoreModel(input).params);
  });

  it('rejects probabilities outside (0, 1) or a 1X2 that does not sum to 1', () => {
    expect(() => fitScoreModel({ oneXTwo: { home: 0.5, draw: 0.5, away: 0 }, totals: [] })).toThrow(
      RangeError,
    );
    expect(() => fitScoreModel({ oneXTwo: { home: 0.5, draw: 0.3, away: 0.3 }, totals: [] })).toThrow(
      RangeError,
    );
  });

  it('recovers any model it can represent: targets made by a model are fitted back within the tolerance', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.4, max: 3.2, noNaN: true }),
        fc.double({ min: 0.3, max: 2.6, noNaN: true }),
        fc.double({ min: -0.2, max: 0.1, noNaN: true }),
        (home, away, rawRho) => {
          const r = rhoRange(home, away);
          const params = { home, away, rho: Math.min(r.max, Math.max(r.min, rawRho)) };
          const p = (t: (s: { home: number; away: number }) => boolean) => modelProbability(params, t);
          const ph = p((s) => s.home > s.away);
          const pa = p((s) => s.home < s.away);
          const fit = fitScoreModel({
            oneXTwo: { home: ph, draw: 1 - ph - pa, away: pa },
            totals: [{ line: 2.5, over: p((s) => s.home + s.away > 2.5) }],
          });
          expect(fit.maxError).toBeLessThan(1e-7);
        },
      ),
      { numRuns: 25, seed: 42 },
    );
  });
});
