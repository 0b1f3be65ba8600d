/**
 * Properties of builder pricing over random models and random combinations of the fixture event's legs
 * (fast-check): a combination is never more likely than any of its legs, adding a leg never raises the probability,
 * complementary legs split a combination's probability exactly, home, draw and away partition every combination,
 * contradictory legs have probability 0 and are refused, a one-leg builder is its leg, offered odds stay in range and
 * below fair, and the whole calculation is deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, compare, div, mul, ONE, rational, ZERO } from '../decimal.js';
import {
  BUILDER_MAX_ODDS,
  BUILDER_MIN_ODDS,
  type BuilderLegRef,
  builderModel,
  builderProbabilities,
  calculateBuilder,
  priceBuilder,
} from './builder.js';
import { footballOdd, footballOddResult } from './football-markets.js';
import { rhoRange } from './score-model.js';
import { FIXTURE_EVENT, FIXTURE_MARKETS, modelWith } from './testing.js';

/** Every two-valued (win or loss on every score) leg of the fixture, by market. */
const TWO_VALUED = Object.entries(FIXTURE_MARKETS).flatMap(([market_id, m]) =>
  Object.keys(m.odds).flatMap((odd_id) => {
    const r = footballOdd(m.type_id, m.specifiers, odd_id);
    return r.ok && !r.odd.refundable && !r.odd.split ? [{ market_id, odd_id, odd: r.odd }] : [];
  }),
);

const modelArb = fc
  .record({
    home: fc.double({ min: 0.2, max: 4, noNaN: true }),
    away: fc.double({ min: 0.2, max: 4, noNaN: true }),
    rho: fc.double({ min: -0.25, max: 0.1, noNaN: true }),
  })
  .map(({ home, away, rho }) => {
    const r = rhoRange(home, away);
    return modelWith({ home, away, rho: Math.min(r.max, Math.max(r.min, rho)) });
  });

/** A set of legs on distinct markets. */
const legsArb = fc.uniqueArray(fc.constantFrom(...TWO_VALUED), {
  minLength: 1,
  maxLength: 4,
  selector: (l) => l.market_id,
});

const RUNS = { numRuns: 60, seed: 7 };

describe('builder pricing properties', () => {
  it('a combination is never more likely than any of its legs', () => {
    fc.assert(
      fc.property(modelArb, legsArb, (model, legs) => {
        const all = builderProbabilities(
          model.matrix,
          legs.map((l) => l.odd),
        ).win;
        for (const l of legs)
          expect(compare(all, builderProbabilities(model.matrix, [l.odd]).win)).toBeLessThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it('adding a leg never raises the probability', () => {
    fc.assert(
      fc.property(modelArb, legsArb, fc.constantFrom(...TWO_VALUED), (model, legs, extra) => {
        const before = builderProbabilities(
          model.matrix,
          legs.map((l) => l.odd),
        ).win;
        const after = builderProbabilities(model.matrix, [...legs.map((l) => l.odd), extra.odd]).win;
        expect(compare(after, before)).toBeLessThanOrEqual(0);
      }),
      RUNS,
    );
  });

  it('complementary legs split a combination exactly: P(B & over) + P(B & under) = P(B)', () => {
    const pairs = [
      ['18:total=2.5', '12', '13'],
      ['29', '74', '76'],
      ['19:total=1.5', '12', '13'],
    ] as const;
    const odd = (m: string, o: string) => {
      const r = footballOdd(FIXTURE_MARKETS[m]!.type_id, FIXTURE_MARKETS[m]!.specifiers, o);
      if (!r.ok) throw new Error(r.message);
      return r.odd;
    };
    fc.assert(
      fc.property(modelArb, legsArb, fc.constantFrom(...pairs), (model, legs, [m, yes, no]) => {
        const base = legs.filter((l) => l.market_id !== m).map((l) => l.odd);
        const p = (extra: ReturnType<typeof odd>[]) =>
          builderProbabilities(model.matrix, [...base, ...extra]).win;
        expect(add(p([odd(m, yes)]), p([odd(m, no)]))).toEqual(p([]));
        if (base.length === 0) expect(p([])).toEqual(ONE);
      }),
      RUNS,
    );
  });

  it("home, draw and away partition every combination: their probabilities sum to the combination's, 1 alone", () => {
    const oneX2 = ['1', '2', '3'].map((o) => {
      const r = footballOdd(FIXTURE_MARKETS['1']!.type_id, {}, o);
      if (!r.ok) throw new Error(r.message);
      return r.odd;
    });
    fc.assert(
      fc.property(modelArb, legsArb, (model, legs) => {
        const base = legs.filter((l) => l.market_id !== '1').map((l) => l.odd);
        const p = (extra: typeof oneX2) => builderProbabilities(model.matrix, [...base, ...extra]).win;
        const parts = oneX2.map((o) => p([o]));
        expect(parts.reduce((a, b) => add(a, b), ZERO)).toEqual(p([]));
        if (base.length === 0) expect(compare(p([]), ONE)).toBe(0);
      }),
      RUNS,
    );
  });

  it('contradictory legs have probability 0 and the builder is refused as contradictory', () => {
    // a home win and "draw or away" never win on the same final score
    const contradiction = [
      { market_id: '1', odd_id: '1' },
      { market_id: '10', odd_id: '11' },
    ];
    fc.assert(
      fc.property(modelArb, legsArb, (model, legs) => {
        const others = legs.filter((l) => l.market_id !== '1' && l.market_id !== '10');
        const odds = [
          ...others.map((l) => l.odd),
          ...contradiction.map(({ market_id, odd_id }) => {
            const r = footballOdd(FIXTURE_MARKETS[market_id]!.type_id, {}, odd_id);
            if (!r.ok) throw new Error(r.message);
            return r.odd;
          }),
        ];
        const p = builderProbabilities(model.matrix, odds);
        expect(compare(p.win, ZERO)).toBe(0);
        expect(p.possible).toBe(false);
        const refs = [...others.map(({ market_id, odd_id }) => ({ market_id, odd_id })), ...contradiction];
        const q = priceBuilder(FIXTURE_EVENT, model, refs, { margin: rational(5n, 100n) });
        expect(q.ok).toBe(false);
        if (!q.ok) expect(q.refusal.code).toBe('contradictory');
      }),
      RUNS,
    );
  });

  it('a one-leg builder is its leg: the model mass of the final scores the leg wins, as settled from the score', () => {
    fc.assert(
      fc.property(modelArb, fc.constantFrom(...TWO_VALUED), (model, leg) => {
        const m = FIXTURE_MARKETS[leg.market_id]!;
        let won = 0n;
        for (const [home, row] of model.matrix.cells.entries())
          for (const [away, cell] of row.entries())
            if (footballOddResult(m.type_id, m.specifiers, leg.odd_id, { home, away }) === 1) won += cell;
        const expected = rational(won, model.matrix.total);
        expect(compare(builderProbabilities(model.matrix, [leg.odd]).win, expected)).toBe(0);
        const q = priceBuilder(FIXTURE_EVENT, model, [{ market_id: leg.market_id, odd_id: leg.odd_id }], {
          margin: ZERO,
        });
        if (q.ok) expect(compare(q.value.probability, expected)).toBe(0);
        else expect(q.refusal.code).toBe('odds_out_of_range');
      }),
      RUNS,
    );
  });

  it('offered odds are within [1.01, 1000], at most fair / (1 + margin), and within 0.001 of it', () => {
    fc.assert(
      fc.property(modelArb, legsArb, fc.integer({ min: 0, max: 30 }), (model, legs, pct) => {
        const margin = rational(BigInt(pct), 100n);
        const refs: BuilderLegRef[] = legs.map(({ market_id, odd_id }) => ({ market_id, odd_id }));
        const q = priceBuilder(FIXTURE_EVENT, model, refs, { margin });
        if (!q.ok) {
          expect(['contradictory', 'odds_out_of_range']).toContain(q.refusal.code);
          return;
        }
        const { odds, fairOdds, probability } = q.value;
        expect(compare(odds, BUILDER_MIN_ODDS)).toBeGreaterThanOrEqual(0);
        expect(compare(odds, BUILDER_MAX_ODDS)).toBeLessThanOrEqual(0);
        const exact = div(fairOdds, add(ONE, margin));
        expect(compare(odds, exact)).toBeLessThanOrEqual(0);
        expect(compare(add(odds, rational(1n, 1000n)), exact)).toBeGreaterThan(0);
        expect(fairOdds).toEqual(div(ONE, probability)); // two-valued legs: no refunds
        expect(compare(mul(probability, fairOdds), ONE)).toBe(0);
      }),
      RUNS,
    );
  });

  it('is deterministic: the same event and legs give the same fit, quote and addable odds', () => {
    const legs = [
      { market_id: '1', odd_id: '1' },
      { market_id: '29', odd_id: '74' },
    ];
    const a = builderModel(FIXTURE_EVENT);
    const b = builderModel(FIXTURE_EVENT);
    expect(a).toEqual(b);
    const settings = { margin: rational(7n, 100n) };
    expect(calculateBuilder(FIXTURE_EVENT, legs, settings)).toEqual(
      calculateBuilder(FIXTURE_EVENT, legs, settings),
    );
  });
});
