import { describe, expect, it } from 'vitest';
import { rational } from '../decimal.js';
import { DomainError } from '../errors.js';
import { FOOTBALL_MARKET as F, footballOdd, footballOddResult, lineResult } from './football-markets.js';

const WIN = 1;
const LOSS = 2;
const HALF_WIN = 3;
const HALF_LOSS = 4;
const REFUND = 5;
const s = (home: number, away: number) => ({ home, away });
const r = (type: number, spec: Record<string, string>, odd: string, home: number, away: number) =>
  footballOddResult(type, spec, odd, s(home, away));

describe('football odds as functions of the final score', () => {
  it('1X2 by Unified-Odds ids and by name', () => {
    expect([
      r(F.ONE_X_TWO, {}, '1', 2, 1),
      r(F.ONE_X_TWO, {}, '2', 2, 1),
      r(F.ONE_X_TWO, {}, '3', 2, 1),
    ]).toEqual([WIN, LOSS, LOSS]);
    expect([
      r(F.ONE_X_TWO, {}, 'home', 1, 1),
      r(F.ONE_X_TWO, {}, 'draw', 1, 1),
      r(F.ONE_X_TWO, {}, 'away', 0, 3),
    ]).toEqual([LOSS, WIN, WIN]);
  });

  it('double chance', () => {
    expect([
      r(F.DOUBLE_CHANCE, {}, '9', 1, 1),
      r(F.DOUBLE_CHANCE, {}, '10', 1, 1),
      r(F.DOUBLE_CHANCE, {}, '11', 1, 1),
    ]).toEqual([WIN, LOSS, WIN]);
    expect(r(F.DOUBLE_CHANCE, {}, 'home_or_away', 0, 2)).toBe(WIN);
  });

  it('draw no bet refunds a draw', () => {
    expect([
      r(F.DRAW_NO_BET, {}, '4', 2, 2),
      r(F.DRAW_NO_BET, {}, '4', 2, 0),
      r(F.DRAW_NO_BET, {}, '5', 2, 0),
    ]).toEqual([REFUND, WIN, LOSS]);
    const dnb = footballOdd(F.DRAW_NO_BET, {}, 'home');
    expect(dnb.ok && dnb.odd.refundable).toBe(true);
  });

  it('European handicap "h:a": the head start is added before comparing', () => {
    const hcp = { hcp: '0:1' };
    expect([r(F.EUROPEAN_HANDICAP, hcp, '1711', 2, 1), r(F.EUROPEAN_HANDICAP, hcp, '1712', 2, 1)]).toEqual([
      LOSS,
      WIN,
    ]);
    expect(r(F.EUROPEAN_HANDICAP, hcp, '1713', 1, 1)).toBe(WIN);
    expect(r(F.EUROPEAN_HANDICAP, { hcp: '2:0' }, 'home', 0, 1)).toBe(WIN);
  });

  it('Asian handicap: half lines win or lose, whole lines refund, quarter lines split', () => {
    expect(r(F.ASIAN_HANDICAP, { hcp: '-0.5' }, '1714', 1, 0)).toBe(WIN);
    expect(r(F.ASIAN_HANDICAP, { hcp: '-0.5' }, '1715', 1, 0)).toBe(LOSS);
    expect(r(F.ASIAN_HANDICAP, { hcp: '-1' }, 'home', 1, 0)).toBe(REFUND);
    expect(r(F.ASIAN_HANDICAP, { hcp: '-0.25' }, 'home', 0, 0)).toBe(HALF_LOSS);
    expect(r(F.ASIAN_HANDICAP, { hcp: '-0.25' }, 'away', 0, 0)).toBe(HALF_WIN);
    expect(r(F.ASIAN_HANDICAP, { hcp: '-1.75' }, 'home', 3, 1)).toBe(HALF_WIN);
    const q = footballOdd(F.ASIAN_HANDICAP, { hcp: '0.75' }, 'home');
    expect(q.ok && q.odd.split).toBe(true);
  });

  it('totals and team totals', () => {
    expect([r(F.TOTAL, { total: '2.5' }, '12', 2, 1), r(F.TOTAL, { total: '2.5' }, '13', 2, 1)]).toEqual([
      WIN,
      LOSS,
    ]);
    expect(r(F.TOTAL, { total: '3' }, 'over', 2, 1)).toBe(REFUND);
    expect(r(F.HOME_TOTAL, { total: '1.5' }, 'over', 2, 5)).toBe(WIN);
    expect(r(F.AWAY_TOTAL, { total: '1.5' }, 'under', 2, 5)).toBe(LOSS);
    expect(r(F.AWAY_TOTAL, { total: '0.5' }, 'under', 2, 0)).toBe(WIN);
  });

  it('both teams to score and correct score', () => {
    expect([r(F.BOTH_TEAMS_TO_SCORE, {}, '74', 1, 1), r(F.BOTH_TEAMS_TO_SCORE, {}, '76', 1, 0)]).toEqual([
      WIN,
      WIN,
    ]);
    expect(r(F.BOTH_TEAMS_TO_SCORE, {}, 'yes', 0, 3)).toBe(LOSS);
    expect([r(F.CORRECT_SCORE, {}, '2:1', 2, 1), r(F.CORRECT_SCORE, {}, '2:1', 1, 2)]).toEqual([WIN, LOSS]);
  });

  it('lineResult matches the quarter-line rule', () => {
    expect(lineResult(1, 1, rational(1n, 4n))).toBe(HALF_WIN);
    expect(lineResult(1, 1, rational(-1n, 4n))).toBe(HALF_LOSS);
    expect(lineResult(2, 1, rational(-3n, 4n))).toBe(HALF_WIN);
    expect(lineResult(2, 0, rational(-3n, 4n))).toBe(WIN);
  });
});

describe('odds that are not legs', () => {
  it.each([
    [99, {}, '1', 'unsupported_market'],
    [F.ONE_X_TWO, {}, '4', 'unsupported_outcome'],
    [F.ONE_X_TWO, {}, 'toString', 'unsupported_outcome'],
    [F.TOTAL, {}, 'over', 'unsupported_line'],
    [F.TOTAL, { total: '2.6' }, 'over', 'unsupported_line'],
    [F.TOTAL, { total: '10.5' }, 'over', 'unsupported_line'],
    [F.TOTAL, { total: '-1.5' }, 'over', 'unsupported_line'],
    [F.ASIAN_HANDICAP, { hcp: '1e1' }, 'home', 'unsupported_line'],
    [F.EUROPEAN_HANDICAP, { hcp: '-1' }, 'home', 'unsupported_line'],
    [F.CORRECT_SCORE, {}, '10:0', 'unsupported_line'],
    [F.CORRECT_SCORE, {}, 'other', 'unsupported_outcome'],
  ])('type %s %j odd %s → %s', (type, spec, odd, code) => {
    const out = footballOdd(type, spec, odd);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.code).toBe(code);
      expect(out.message.length).toBeGreaterThan(10);
    }
  });

  it('footballOddResult throws a validation error naming the field', () => {
    expect(() => footballOddResult(99, {}, '1', s(1, 0), 'legs[2]')).toThrow(/^legs\[2\]: market type 99/);
    try {
      footballOddResult(1, {}, '1', s(-1, 0));
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).details).toEqual({ field: 'score.home' });
    }
    expect.assertions(3);
  });
});
