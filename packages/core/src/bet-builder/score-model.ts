/**
 * The football score model of the bet builder (DECISIONS D59; docs/adr/0042-bet-builder-pricing.md): a Dixon–Coles
 * bivariate Poisson model of the final score (M. J. Dixon and S. G. Coles, 1997, "Modelling Association Football
 * Scores and Inefficiencies in the Football Betting Market", Journal of the Royal Statistical Society, Series C
 * (Applied Statistics) 46(2), 265–280), fitted to the margin-free probabilities of an event's 1X2 and total goals
 * markets.
 *
 * The model's probabilities are an estimate and are computed in floating point, with IEEE-754 basic operations only
 * (+ − × ÷, correctly rounded, so bit-identical on every engine; no `Math.exp`, whose last bits may differ between
 * engines). The exactness boundary is the {@link ScoreMatrix}: every cell is quantized once to an integer count of
 * 10⁻¹⁵ ({@link CELL_SCALE}); from there on everything is exact bigint arithmetic.
 *
 * @packageDocumentation
 */

/** Goals per team the score matrix covers: scores 0..15 a side. Lines and scores of legs stay within {@link MAX_LEG_GOALS}. */
export const MAX_GOALS = 15;

/** Lines and scores a leg may name stay below this many goals, so the truncated tail (beyond {@link MAX_GOALS}) never decides a leg. */
export const MAX_LEG_GOALS = 10;

/** Cells of the score matrix are integer multiples of 10⁻¹⁵ of probability (the quantization step). */
export const CELL_SCALE = 1_000_000_000_000_000;

/** Bounds of a team's expected goals in the fit. */
export const GOAL_MEAN_BOUNDS = { min: 0.05, max: 6 } as const;

/** Bound of |ρ|, the Dixon–Coles low-score dependence (published fits are around −0.1). */
export const RHO_BOUND = 0.3;

/** Parameters of the score model: expected goals of each team and the Dixon–Coles ρ (0: independent Poisson). */
export interface ScoreModelParams {
  /** Expected goals of the home team (competitor with home_away 1) over the match. */
  readonly home: number;
  /** Expected goals of the away team. */
  readonly away: number;
  /** Dixon–Coles dependence of the low scores 0:0, 1:0, 0:1, 1:1; 0 makes the two counts independent. */
  readonly rho: number;
}

/**
 * The quantized score matrix: `cells[h][a]` is the probability of the final score h:a in units of 10⁻¹⁵
 * ({@link CELL_SCALE}), h, a = 0..{@link MAX_GOALS}. `total` is the sum of all cells; the probability of a set of
 * scores is (Σ of its cells) / `total` exactly, so the mass beyond {@link MAX_GOALS} goals a side (the truncated
 * tail, at most ~10⁻⁴ for the means football produces) is spread over the matrix in proportion, and the
 * probabilities of complementary sets sum to exactly 1.
 */
export interface ScoreMatrix {
  readonly params: ScoreModelParams;
  readonly cells: readonly (readonly bigint[])[];
  readonly total: bigint;
  /** The probability mass the truncation dropped before renormalising (a float, for reports). */
  readonly tail: number;
}

/** e⁻¹ to double precision. */
const E_INV = 0.36787944117144233;

/**
 * e^−x for x ≥ 0 with basic operations only: e^−n by repeated multiplication of e⁻¹ and e^−f (0 ≤ f < 1) by its
 * Taylor series to 25 terms (relative error below 1e−15).
 */
export function expNeg(x: number): number {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`expNeg: needs a finite x ≥ 0, got ${x}`);
  const n = Math.floor(x);
  const f = x - n;
  let term = 1;
  let series = 1;
  for (let k = 1; k <= 25; k++) {
    term = (term * -f) / k;
    series += term;
  }
  let whole = 1;
  for (let i = 0; i < n; i++) whole *= E_INV;
  return whole * series;
}

/** P(N = k), k = 0..{@link MAX_GOALS}, for N ~ Poisson(mean). */
export function poissonPmf(mean: number): number[] {
  const out = [expNeg(mean)];
  for (let k = 1; k <= MAX_GOALS; k++) out.push((out[k - 1]! * mean) / k);
  return out;
}

/** The Dixon–Coles factor τ of score h:a (1 except for 0:0, 0:1, 1:0, 1:1). */
export function dixonColesTau(h: number, a: number, p: ScoreModelParams): number {
  if (h === 0 && a === 0) return 1 - p.home * p.away * p.rho;
  if (h === 0 && a === 1) return 1 + p.home * p.rho;
  if (h === 1 && a === 0) return 1 + p.away * p.rho;
  if (h === 1 && a === 1) return 1 - p.rho;
  return 1;
}

/** The range of ρ that keeps every τ non-negative (shrunk by 1 %) within ±{@link RHO_BOUND}. */
export function rhoRange(home: number, away: number): { min: number; max: number } {
  return {
    min: Math.max(-RHO_BOUND, -0.99 / Math.max(home, away)),
    max: Math.min(RHO_BOUND, 0.99 / (home * away)),
  };
}

/** The unquantized probabilities of the scores 0..MAX_GOALS a side (floats; they sum to 1 − tail). */
export function scoreProbabilities(p: ScoreModelParams): number[][] {
  const ph = poissonPmf(p.home);
  const pa = poissonPmf(p.away);
  const out: number[][] = [];
  for (let h = 0; h <= MAX_GOALS; h++) {
    const row: number[] = [];
    for (let a = 0; a <= MAX_GOALS; a++) row.push(ph[h]! * pa[a]! * dixonColesTau(h, a, p));
    out.push(row);
  }
  return out;
}

function checkParams(p: ScoreModelParams): void {
  for (const [k, v] of [
    ['home', p.home],
    ['away', p.away],
  ] as const) {
    if (!(v >= GOAL_MEAN_BOUNDS.min && v <= GOAL_MEAN_BOUNDS.max))
      throw new RangeError(
        `score model: ${k} mean ${v} outside [${GOAL_MEAN_BOUNDS.min}, ${GOAL_MEAN_BOUNDS.max}]`,
      );
  }
  const r = rhoRange(p.home, p.away);
  if (!(p.rho >= r.min - 1e-12 && p.rho <= r.max + 1e-12))
    throw new RangeError(`score model: rho ${p.rho} outside [${r.min}, ${r.max}]`);
}

/**
 * The quantized score matrix of a model (see {@link ScoreMatrix}): each float cell rounded to the nearest multiple
 * of 10⁻¹⁵. Deterministic: the same parameters give the same bigint cells on every engine.
 *
 * @throws RangeError when a mean is outside {@link GOAL_MEAN_BOUNDS} or ρ outside {@link rhoRange} (a programming
 *   error; fitted models always satisfy them).
 */
export function scoreMatrix(params: ScoreModelParams): ScoreMatrix {
  checkParams(params);
  const probs = scoreProbabilities(params);
  let total = 0n;
  let mass = 0;
  const cells = probs.map((row) =>
    row.map((v) => {
      mass += v;
      const units = BigInt(Math.round(v * CELL_SCALE));
      total += units;
      return units;
    }),
  );
  return Object.freeze({ params: Object.freeze({ ...params }), cells, total, tail: Math.max(0, 1 - mass) });
}
