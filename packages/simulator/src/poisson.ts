/**
 * The in-play price model of the replay (docs/adr/0026-in-play-replay.md "Poisson model"): each team scores as a
 * Poisson process whose 90-minute means are solved from the match's real pre-match 1X2 and over/under 2.5 odds
 * (margin removed proportionally, as the feed's `probability` is, DECISIONS D41). In play, the goals still to come
 * are Poisson with the means scaled by the share of the 90 minutes left, and the current score conditions the
 * outcome. Pure functions; floating point only for probabilities, the odds leave as exact feed decimal strings.
 *
 * @packageDocumentation
 */
import { formatFeedOddValue, parseFeedOddValue } from '@bookie/core';
import type { GoalScore } from './football-data.js';

/** Expected goals of each team over 90 minutes. */
export interface GoalModel {
  home: number;
  away: number;
}

/** Probabilities of the in-play markets. `over`/`under` are for the model's total line. */
export interface OutcomeProbabilities {
  home: number;
  draw: number;
  away: number;
  over: number;
  under: number;
}

/** Goals per team summed over: P(more than 20 remaining goals) is below 1e-12 for any mean this model meets. */
const MAX_GOALS = 20;

/** P(N = k) for N ~ Poisson(mean), k = 0..MAX_GOALS. */
export function poissonPmf(mean: number): number[] {
  const out: number[] = [Math.exp(-mean)];
  for (let k = 1; k <= MAX_GOALS; k++) out.push((out[k - 1]! * mean) / k);
  return out;
}

/**
 * Margin-free probabilities of a market from its decimal odds: 1/odds divided by the sum of 1/odds (D41).
 *
 * @throws RangeError when an odds value is not a number above 1.
 */
export function impliedProbabilities(odds: readonly string[]): number[] {
  const inv = odds.map((o) => {
    const v = Number(o);
    if (!(v > 1)) throw new RangeError(`impliedProbabilities: odds must be above 1, got "${o}"`);
    return 1 / v;
  });
  const sum = inv.reduce((a, b) => a + b, 0);
  return inv.map((x) => x / sum);
}

/** The overround of a market (Σ 1/odds, e.g. 1.05 for a 5 % book). */
export function overround(odds: readonly string[]): number {
  return odds.reduce((a, o) => a + 1 / Number(o), 0);
}

/** Bisection of an increasing function `f` on [lo, hi] for `f(x) = target` (60 halvings: below 1e-15 relative). */
function solveIncreasing(f: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  for (let i = 0; i < 60; i++) {
    const mid = (a + b) / 2;
    if (f(mid) < target) a = mid;
    else b = mid;
  }
  return (a + b) / 2;
}

/** P(N > line) for N ~ Poisson(mean), after `scored` goals (the total line, e.g. 2.5). */
function overProbability(mean: number, scored: number, line: number): number {
  const need = Math.floor(line) + 1 - scored; // more goals needed to go over
  if (need <= 0) return 1;
  const pmf = poissonPmf(mean);
  let under = 0;
  for (let k = 0; k < need && k <= MAX_GOALS; k++) under += pmf[k]!;
  return Math.max(0, Math.min(1, 1 - under));
}

/**
 * The probabilities of the 1X2 and total markets with `remaining` (0..1) of the 90 minutes still to play and the
 * score `score`: remaining goals of each team ~ Poisson(mean × remaining), independent.
 */
export function outcomeProbabilities(
  model: GoalModel,
  remaining: number,
  score: GoalScore,
  line = 2.5,
): OutcomeProbabilities {
  const r = Math.max(0, Math.min(1, remaining));
  const ph = poissonPmf(model.home * r);
  const pa = poissonPmf(model.away * r);
  let home = 0;
  let draw = 0;
  let away = 0;
  for (let x = 0; x <= MAX_GOALS; x++) {
    for (let y = 0; y <= MAX_GOALS; y++) {
      const p = ph[x]! * pa[y]!;
      const d = score.home + x - (score.away + y);
      if (d > 0) home += p;
      else if (d < 0) away += p;
      else draw += p;
    }
  }
  const sum = home + draw + away;
  const over = overProbability((model.home + model.away) * r, score.home + score.away, line);
  return { home: home / sum, draw: draw / sum, away: away / sum, over, under: 1 - over };
}

/**
 * Solves the 90-minute goal means from pre-match odds. The total mean is the one whose P(total > line) equals the
 * over/under market's margin-free over probability (the sum of two independent Poisson counts is Poisson of the
 * summed mean, so this depends on the total alone); the home share of it is the one whose P(home) − P(away) equals
 * the 1X2 market's. Both are monotone, solved by bisection. Without an over/under quote the total mean is
 * {@link DEFAULT_TOTAL_GOALS}. The draw probability is the model's (two unknowns, the 1X2 fixes one of them).
 */
export function calibrateGoalModel(
  oneXTwo: { home: string; draw: string; away: string },
  total?: { line: string; over: string; under: string },
): GoalModel {
  const [pHome, , pAway] = impliedProbabilities([oneXTwo.home, oneXTwo.draw, oneXTwo.away]) as [
    number,
    number,
    number,
  ];
  let mean = DEFAULT_TOTAL_GOALS;
  if (total) {
    const [pOver] = impliedProbabilities([total.over, total.under]) as [number, number];
    const line = Number(total.line);
    mean = solveIncreasing((m) => overProbability(m, 0, line), pOver, 0.05, 12);
  }
  const target = pHome - pAway;
  const share = solveIncreasing(
    (s) => {
      const p = outcomeProbabilities({ home: mean * s, away: mean * (1 - s) }, 1, { home: 0, away: 0 });
      return p.home - p.away;
    },
    target,
    0.001,
    0.999,
  );
  return { home: mean * share, away: mean * (1 - share) };
}

/** Goals per match when the pre-match odds have no over/under quote (a top-flight league's average). */
export const DEFAULT_TOTAL_GOALS = 2.7;

/** The shortest and the longest odds the model publishes. */
export const ODDS_FLOOR = 1.01;
export const ODDS_CEILING = 1000;

/**
 * Decimal odds of a probability under a book's overround: 1 / (p × overround), rounded half-up to 2 decimals as the
 * pre-match prices in the CSV are, kept within [{@link ODDS_FLOOR}, {@link ODDS_CEILING}], written as the feed's
 * 12-decimal value (`"2.150000000000"`).
 */
export function priceOf(probability: number, bookOverround: number): string {
  const raw = probability > 0 ? 1 / (probability * bookOverround) : ODDS_CEILING;
  const clamped = Math.min(ODDS_CEILING, Math.max(ODDS_FLOOR, raw));
  // round half up on the cents, with an epsilon against 2.145 stored as 2.14499999…
  const cents = Math.floor(clamped * 100 + 0.5 + 1e-9);
  return formatFeedOddValue(parseFeedOddValue((cents / 100).toFixed(2), 'odds'));
}

/** In-play prices of the 1X2 and total markets as feed odd values. */
export interface InPlayPrices {
  '1x2': { home: string; draw: string; away: string };
  total: { over: string; under: string };
}

/**
 * The in-play prices at `remaining` (0..1) of the match left with `score`: the model's probabilities priced with
 * each market's pre-match overround (the book keeps its margin in play).
 */
export function inPlayPrices(
  model: GoalModel,
  remaining: number,
  score: GoalScore,
  margins: { '1x2': number; total: number },
  line = 2.5,
): InPlayPrices {
  const p = outcomeProbabilities(model, remaining, score, line);
  return {
    '1x2': {
      home: priceOf(p.home, margins['1x2']),
      draw: priceOf(p.draw, margins['1x2']),
      away: priceOf(p.away, margins['1x2']),
    },
    total: { over: priceOf(p.over, margins.total), under: priceOf(p.under, margins.total) },
  };
}
