/** Odds shading (D39). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compare, parseDecimal, rational } from './decimal.js';
import { isPastShadeThreshold, shadedOdds } from './odds-shading.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });
const settings = { from: d('0.5'), maxShare: d('0.2') };

describe('shadedOdds', () => {
  it('keeps base odds up to the threshold, lowers linearly past it, by maxShare of (odds − 1) at the limit', () => {
    expect(shadedOdds(d('3'), d('500'), d('1000'), settings)).toEqual(d('3'));
    expect(shadedOdds(d('3'), d('750'), d('1000'), settings)).toEqual(d('2.8'));
    expect(shadedOdds(d('3'), d('1000'), d('1000'), settings)).toEqual(d('2.6'));
    expect(shadedOdds(d('3'), d('5000'), d('1000'), settings)).toEqual(d('2.6'));
    expect(shadedOdds(d('3'), d('5000'), undefined, settings)).toEqual(d('3'));
  });

  it('never rises above base, never falls below 1, and falls as exposure grows', () => {
    const arb = fc.bigInt({ min: 0n, max: 3_000_000n }).map((n) => rational(n, 1000n));
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1000n, max: 50_000n }).map((n) => rational(n, 1000n)),
        arb,
        arb,
        (base, a, b) => {
          const [lo, hi] = compare(a, b) <= 0 ? [a, b] : [b, a];
          const sLo = shadedOdds(base, lo, d('1000'), settings);
          const sHi = shadedOdds(base, hi, d('1000'), settings);
          expect(compare(sLo, base) <= 0 && compare(sHi, rational(1n)) >= 0).toBe(true);
          expect(compare(sHi, sLo) <= 0).toBe(true);
        },
      ),
    );
  });

  it('changes odds only past the threshold: isPastShadeThreshold says when the writer has something to publish', () => {
    expect(isPastShadeThreshold(d('500'), d('1000'), settings)).toBe(false);
    expect(isPastShadeThreshold(d('500.000001'), d('1000'), settings)).toBe(true);
    expect(isPastShadeThreshold(d('5000'), undefined, settings)).toBe(false);
    expect(isPastShadeThreshold(d('5000'), d('0'), settings)).toBe(false);
    expect(isPastShadeThreshold(d('5000'), d('1000'), { ...settings, maxShare: d('0') })).toBe(false);
    const arb = fc.bigInt({ min: 0n, max: 3_000_000n }).map((n) => rational(n, 1000n));
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1000n, max: 50_000n }).map((n) => rational(n, 1000n)),
        arb,
        (base, exposure) => {
          // below the threshold the odds never move
          if (!isPastShadeThreshold(exposure, d('1000'), settings)) {
            expect(shadedOdds(base, exposure, d('1000'), settings)).toEqual(base);
          }
        },
      ),
    );
  });
});
