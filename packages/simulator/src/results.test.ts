import { add, div, eq, legFactor, ODD_STATUS, parseOdds, type Rational, rational, sub } from '@bookie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLine } from './football-data.js';
import { asianHandicapResult, lineResult, marketResults, oneXTwoResult, totalResult } from './results.js';

const s = (home: number, away: number) => ({ home, away });
const W = 1;
const L = 2;
const HW = 3;
const HL = 4;
const R = 5;

/** A line as text, e.g. quarters −7 → "-1.75". */
function lineText(quarters: number): string {
  const sign = quarters < 0 ? '-' : '';
  const q = Math.abs(quarters);
  return `${sign}${Math.floor(q / 4)}.${['0', '25', '5', '75'][q % 4]}`;
}

const goals = fc.integer({ min: 0, max: 12 });
const quarters = fc.integer({ min: -24, max: 24 });
const odds = fc
  .tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 999 }))
  .map(([i, f]) => parseOdds(`${i}.${String(f).padStart(3, '0')}`, 'odds'));

const COMPLEMENT: Record<number, number> = { [W]: L, [L]: W, [HW]: HL, [HL]: HW, [R]: R };

describe('1X2 and totals', () => {
  it('results 1X2 from the full-time score', () => {
    expect(oneXTwoResult(s(2, 1))).toEqual({ home: W, draw: L, away: L });
    expect(oneXTwoResult(s(0, 0))).toEqual({ home: L, draw: W, away: L });
    expect(oneXTwoResult(s(0, 3))).toEqual({ home: L, draw: L, away: W });
  });

  it('results total 2.5 (and whole / quarter total lines)', () => {
    expect(totalResult(s(2, 1), '2.5')).toEqual({ over: W, under: L });
    expect(totalResult(s(1, 1), '2.5')).toEqual({ over: L, under: W });
    expect(totalResult(s(0, 0), '2.5')).toEqual({ over: L, under: W });
    expect(totalResult(s(2, 1), '3.0')).toEqual({ over: R, under: R });
    expect(totalResult(s(2, 1), '2.75')).toEqual({ over: HW, under: HL });
    expect(totalResult(s(1, 1), '2.25')).toEqual({ over: HL, under: HW });
  });
});

describe('Asian handicap (home line applied to home goals)', () => {
  it.each([
    // line, home, away, home result, away result
    ['-0.25', 1, 1, HL, HW],
    ['-0.25', 2, 1, W, L],
    ['-0.25', 0, 1, L, W],
    ['-0.5', 1, 1, L, W],
    ['-0.75', 2, 1, HW, HL],
    ['-0.75', 3, 1, W, L],
    ['-1.0', 2, 1, R, R],
    ['-1.0', 3, 1, W, L],
    ['0.0', 1, 1, R, R],
    ['0.0', 1, 0, W, L],
    ['0.25', 1, 1, HW, HL],
    ['0.25', 0, 1, L, W],
    ['1.5', 0, 1, W, L],
    ['1.5', 0, 2, L, W],
    ['1.75', 0, 2, HL, HW],
    ['1.75', 0, 1, W, L],
    ['-2.25', 4, 2, HL, HW],
    ['-2.25', 5, 2, W, L],
    ['2.0', 0, 2, R, R],
  ] as const)('line %s, %i–%i: home %i, away %i', (line, h, a, home, away) => {
    expect(asianHandicapResult(s(h, a), line)).toEqual({ home, away });
  });

  it('rejects lines that are not multiples of 0.25', () => {
    expect(() => asianHandicapResult(s(1, 1), '-0.3')).toThrow(/multiple of 0.25/);
    expect(() => lineResult(1, 1, rational(1n, 3n))).toThrow(RangeError);
    expect(() => lineResult(-1, 1, rational(0n))).toThrow(RangeError);
  });

  it('property: the home and away outcomes are complementary', () => {
    fc.assert(
      fc.property(goals, goals, quarters, (h, a, q) => {
        const r = asianHandicapResult(s(h, a), lineText(q));
        expect(r.away).toBe(COMPLEMENT[r.home]);
      }),
    );
  });

  it('property: a quarter line pays the average of its two half-stakes, at any odds', () => {
    const factor = (status: number, d: Rational) => legFactor({ odds: d, status: status as 1 });
    fc.assert(
      fc.property(
        goals,
        goals,
        quarters.filter((q) => q % 2 !== 0),
        odds,
        (h, a, q, d) => {
          const line = parseLine(lineText(q), 'hcp');
          const quarter = rational(1n, 4n);
          const whole = factor(lineResult(h, a, line), d);
          const lower = factor(lineResult(h, a, sub(line, quarter)), d);
          const upper = factor(lineResult(h, a, add(line, quarter)), d);
          expect(eq(whole, div(add(lower, upper), rational(2n)))).toBe(true);
          // and the two neighbours are a half and a whole line, never both half
          expect([lineResult(h, a, sub(line, quarter)), lineResult(h, a, add(line, quarter))]).not.toContain(
            HW,
          );
        },
      ),
    );
  });

  it('property: backing both sides at fair odds 2.0 never pays more than the two stakes', () => {
    const two = rational(2n);
    fc.assert(
      fc.property(goals, goals, quarters, (h, a, q) => {
        const r = asianHandicapResult(s(h, a), lineText(q));
        const paid = add(legFactor({ odds: two, status: r.home }), legFactor({ odds: two, status: r.away }));
        expect(paid.num <= 2n * paid.den).toBe(true);
      }),
    );
  });

  it('property: total over/under are complementary too, and 1X2 has exactly one winner', () => {
    fc.assert(
      fc.property(goals, goals, fc.integer({ min: 0, max: 40 }), (h, a, q) => {
        const t = totalResult(s(h, a), lineText(q));
        expect(t.under).toBe(COMPLEMENT[t.over]);
        const x = Object.values(oneXTwoResult(s(h, a)));
        expect(x.filter((v) => v === ODD_STATUS.WIN)).toHaveLength(1);
      }),
    );
  });
});

describe('marketResults', () => {
  it('finds the market kind by type id and the line by specifier', () => {
    expect(marketResults({ type_id: 1, specifiers: {} }, s(1, 2))).toEqual({ home: L, draw: L, away: W });
    expect(marketResults({ type_id: 18, specifiers: { total: '2.5' } }, s(1, 2))).toEqual({
      over: W,
      under: L,
    });
    expect(marketResults({ type_id: 16, specifiers: { hcp: '0.75' } }, s(1, 2))).toEqual({
      home: HL,
      away: HW,
    });
    expect(() => marketResults({ type_id: 99, specifiers: {} }, s(0, 0))).toThrow(/unknown market type/);
    expect(() => marketResults({ type_id: 16, specifiers: {} }, s(0, 0))).toThrow(/without hcp/);
  });
});
