/**
 * Fitting the score model to an event's prices (DECISIONS D59, D41; docs/adr/0042-bet-builder-pricing.md
 * "Fitting"). The margin is removed from each market's odds exactly and proportionally, as the feed's `probability`
 * is (D41); the model is then fitted by Levenberg–Marquardt least squares on the margin-free probabilities of the
 * 1X2 (home, away) and of every half-line total-goals market (over), within the bounds of the parameters.
 *
 * With at least one total the model is Dixon–Coles (three parameters: ρ changes only scores with at most two goals,
 * so a 2.5 line fixes the goal mean and the 1X2 fixes the split and ρ: three equations, three unknowns, an exact
 * fit). Without a total it is independent Poisson (ρ = 0) fitted to the 1X2 alone (two equations, two unknowns).
 * Deterministic: fixed starting point, fixed iteration budget, basic float operations only.
 *
 * @packageDocumentation
 */
import { div, ONE, type Rational, sum } from '../decimal.js';
import type { FinalScore } from './football-markets.js';
import {
  GOAL_MEAN_BOUNDS,
  MAX_GOALS,
  rhoRange,
  type ScoreModelParams,
  scoreProbabilities,
} from './score-model.js';

/**
 * Margin-free probabilities of one market's odds, exactly: (1/odds_i) / Σ_j (1/odds_j) — the proportional method
 * of D41. They sum to exactly 1.
 *
 * @param odds - decimal odds of every outcome of the market, each above 1.
 * @throws RangeError when `odds` is empty or a value is not above 1 (validate feed values first).
 */
export function marginFreeProbabilities(odds: readonly Rational[]): Rational[] {
  if (odds.length === 0) throw new RangeError('marginFreeProbabilities: no odds');
  const inv = odds.map((o) => {
    if (o.num <= o.den) throw new RangeError('marginFreeProbabilities: odds must be above 1');
    return div(ONE, o);
  });
  const total = sum(inv);
  return inv.map((p) => div(p, total));
}

/** A rational as the nearest double (deterministic: bigint → double and the division are correctly rounded). */
export function toFloat(x: Rational): number {
  // scale the numerator so both sides stay exactly representable enough for a 1e-15 relative result
  const shift = 60n;
  const q = (x.num << shift) / x.den;
  return Number(q) / 2 ** 60;
}

/** One margin-free probability the model is fitted to: the probability that `test` holds for the final score. */
export interface FitTarget {
  /** What the target is, e.g. `1X2 home`, `total 2.5 over`. */
  readonly label: string;
  /** The margin-free probability, in (0, 1). */
  readonly probability: number;
  readonly test: (score: FinalScore) => boolean;
}

/** The margin-free inputs of a fit: the 1X2 and any half-line totals. */
export interface FitInput {
  readonly oneXTwo: { readonly home: number; readonly draw: number; readonly away: number };
  /** Half lines (`2.5`, …) with the margin-free probability of over. */
  readonly totals: readonly { readonly line: number; readonly over: number }[];
}

/** The result of a fit: the parameters, and how far the model lands from each target. */
export interface FitResult {
  readonly params: ScoreModelParams;
  /** Per target: its probability, the model's, and their difference (model − target). */
  readonly targets: readonly { label: string; target: number; model: number; error: number }[];
  /** The largest |model − target| over all targets, the draw included. */
  readonly maxError: number;
  /** Which model was fitted: `dixon_coles` (with totals) or `poisson` (1X2 only, ρ = 0). */
  readonly kind: 'dixon_coles' | 'poisson';
}

/** Probability of `test` under `params` (floats; the matrix renormalised over its truncated cells). */
export function modelProbability(params: ScoreModelParams, test: (s: FinalScore) => boolean): number {
  const m = scoreProbabilities(params);
  let all = 0;
  let hit = 0;
  for (let h = 0; h <= MAX_GOALS; h++)
    for (let a = 0; a <= MAX_GOALS; a++) {
      const v = m[h]![a]!;
      all += v;
      if (test({ home: h, away: a })) hit += v;
    }
  return hit / all;
}

function targetsOf(input: FitInput): FitTarget[] {
  const t: FitTarget[] = [
    { label: '1X2 home', probability: input.oneXTwo.home, test: (s) => s.home > s.away },
    { label: '1X2 away', probability: input.oneXTwo.away, test: (s) => s.home < s.away },
  ];
  for (const { line, over } of input.totals)
    t.push({ label: `total ${line} over`, probability: over, test: (s) => s.home + s.away > line });
  return t;
}

function probabilitiesOf(params: ScoreModelParams, targets: readonly FitTarget[]): number[] {
  const m = scoreProbabilities(params);
  let all = 0;
  const hit = targets.map(() => 0);
  for (let h = 0; h <= MAX_GOALS; h++)
    for (let a = 0; a <= MAX_GOALS; a++) {
      const v = m[h]![a]!;
      all += v;
      const s = { home: h, away: a };
      for (let i = 0; i < targets.length; i++) if (targets[i]!.test(s)) hit[i]! += v;
    }
  return hit.map((x) => x / all);
}

function clampParams(x: number[], withRho: boolean): ScoreModelParams {
  const c = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  const home = c(x[0]!, GOAL_MEAN_BOUNDS.min, GOAL_MEAN_BOUNDS.max);
  const away = c(x[1]!, GOAL_MEAN_BOUNDS.min, GOAL_MEAN_BOUNDS.max);
  if (!withRho) return { home, away, rho: 0 };
  const r = rhoRange(home, away);
  return { home, away, rho: c(x[2]!, r.min, r.max) };
}

/** P(Poisson(mean) > line). */
function poissonOver(mean: number, line: number): number {
  return modelProbability({ home: mean / 2, away: mean / 2, rho: 0 }, (s) => s.home + s.away > line);
}

function bisect(f: (x: number) => number, target: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  for (let i = 0; i < 50; i++) {
    const mid = (a + b) / 2;
    if (f(mid) < target) a = mid;
    else b = mid;
  }
  return (a + b) / 2;
}

/** Solves A·x = b for a small dense system (Gaussian elimination with partial pivoting). */
function solve(A: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    if (Math.abs(M[p]![c]!) < 1e-300) return undefined;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = M[r]![c]! / M[c]![c]!;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= M[r]![k]! * x[k]!;
    x[r] = s / M[r]![r]!;
  }
  return x;
}

const ITERATIONS = 100;
const STEP = 1e-6;

/**
 * Fits the score model to margin-free probabilities (see the module comment). The starting point: the goal mean
 * whose Poisson P(total > line) matches the first total (2.6 without one), split so the independent model's
 * P(home) − P(away) matches the 1X2, ρ = 0.
 *
 * @throws RangeError when a probability is not in (0, 1) or the 1X2 does not sum to 1 within 1e−9 (a programming
 *   error: callers pass {@link marginFreeProbabilities}).
 */
export function fitScoreModel(input: FitInput): FitResult {
  const { home, draw, away } = input.oneXTwo;
  for (const p of [home, draw, away, ...input.totals.map((t) => t.over)])
    if (!(p > 0 && p < 1)) throw new RangeError(`fitScoreModel: probability ${p} not in (0, 1)`);
  if (Math.abs(home + draw + away - 1) > 1e-9) throw new RangeError('fitScoreModel: 1X2 must sum to 1');
  const withRho = input.totals.length > 0;
  const targets = targetsOf(input);
  const first = input.totals[0];
  const mean = first
    ? bisect(
        (m) => poissonOver(m, first.line),
        first.over,
        2 * GOAL_MEAN_BOUNDS.min,
        2 * GOAL_MEAN_BOUNDS.max,
      )
    : 2.6;
  const share = bisect(
    (s) => {
      const [ph, pa] = probabilitiesOf({ home: mean * s, away: mean * (1 - s), rho: 0 }, targets.slice(0, 2));
      return ph! - pa!;
    },
    home - away,
    0.01,
    0.99,
  );
  let x = withRho ? [mean * share, mean * (1 - share), 0] : [mean * share, mean * (1 - share)];
  x = paramsVector(clampParams(x, withRho), withRho);
  const residuals = (v: number[]) =>
    probabilitiesOf(clampParams(v, withRho), targets).map((p, i) => p - targets[i]!.probability);
  const cost = (r: number[]) => r.reduce((s, e) => s + e * e, 0);
  let r = residuals(x);
  let c = cost(r);
  let damping = 1e-3;
  for (let it = 0; it < ITERATIONS && c > 1e-26; it++) {
    const J: number[][] = r.map(() => []);
    for (let j = 0; j < x.length; j++) {
      const up = [...x];
      const dn = [...x];
      up[j]! += STEP;
      dn[j]! -= STEP;
      const ru = residuals(up);
      const rd = residuals(dn);
      for (let i = 0; i < r.length; i++) J[i]![j] = (ru[i]! - rd[i]!) / (2 * STEP);
    }
    const n = x.length;
    const JtJ = Array.from({ length: n }, (_, a) =>
      Array.from({ length: n }, (_, b) => J.reduce((s, row) => s + row[a]! * row[b]!, 0)),
    );
    const g = Array.from({ length: n }, (_, a) => J.reduce((s, row, i) => s + row[a]! * r[i]!, 0));
    let improved = false;
    for (let tries = 0; tries < 10 && !improved; tries++) {
      const A = JtJ.map((row, a) => row.map((v, b) => (a === b ? v * (1 + damping) + 1e-15 : v)));
      const delta = solve(
        A,
        g.map((v) => -v),
      );
      if (!delta) {
        damping *= 10;
        continue;
      }
      const next = paramsVector(
        clampParams(
          x.map((v, i) => v + delta[i]!),
          withRho,
        ),
        withRho,
      );
      const rn = residuals(next);
      const cn = cost(rn);
      if (cn < c) {
        x = next;
        r = rn;
        c = cn;
        damping = Math.max(1e-12, damping / 10);
        improved = true;
      } else damping *= 10;
    }
    if (!improved) break;
  }
  const params = clampParams(x, withRho);
  const all = [
    ...targets,
    { label: '1X2 draw', probability: draw, test: (s: FinalScore) => s.home === s.away },
  ];
  const model = probabilitiesOf(params, all);
  const report = all.map((t, i) => ({
    label: t.label,
    target: t.probability,
    model: model[i]!,
    error: model[i]! - t.probability,
  }));
  return {
    params,
    targets: report,
    maxError: report.reduce((m, t) => Math.max(m, Math.abs(t.error)), 0),
    kind: withRho ? 'dixon_coles' : 'poisson',
  };
}

function paramsVector(p: ScoreModelParams, withRho: boolean): number[] {
  return withRho ? [p.home, p.away, p.rho] : [p.home, p.away];
}
