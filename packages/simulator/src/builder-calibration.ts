/**
 * The bet builder's score model against real results (docs/adr/0042-bet-builder-pricing.md, "Against real
 * results"): for every match, core's model is fitted to the match's 1X2 and over/under odds at kick-off (margin
 * removed proportionally, as `builderModel` does for a live event), and the model's probability of common 2–3-leg
 * combinations is compared with how often they happened on the real final scores.
 *
 * Pure: no I/O, deterministic; the floats are statistics for a report, never money.
 */
import {
  type BuilderEventInput,
  builderModel,
  builderProbabilities,
  FOOTBALL_MARKET as F,
  type FinalScore,
  type FootballOdd,
  footballOdd,
  toFloat,
} from '@bookie/core';
import type { MatchRow } from './football-data-rows.js';

/** One match as the calibration needs it: odds at kick-off (decimal strings) and the final score. */
export interface CalibrationMatch {
  id: string;
  oneXTwo: { home: string; draw: string; away: string };
  /** Over/under total goals on a half line (football-data: 2.5); absent when not quoted. */
  total?: { line: string; over: string; under: string };
  fullTime: FinalScore;
}

/** A leg as the combination list names it: market type id, specifiers, odd id. */
export interface CalibrationLeg {
  type: number;
  specifiers?: Record<string, string>;
  odd: string;
}

/** A named combination of legs of one match. */
export interface CalibrationCombination {
  name: string;
  legs: readonly CalibrationLeg[];
}

/** One combination's line of the calibration. */
export interface CalibrationLine {
  name: string;
  /** Matches priced (every fitted match prices every combination). */
  n: number;
  /** Matches where every leg won on the real final score. */
  hits: number;
  /** Mean of the model's probability over the `n` matches. */
  model_mean_p: number;
  /** `hits / n`. */
  hit_rate: number;
  /** (model_mean_p − hit_rate) / hit_rate; null without hits. */
  rel_diff: number | null;
  /**
   * (hit_rate − model_mean_p) / se with se = √(Σ pᵢ(1 − pᵢ)) / n, the standard deviation of the hit rate were the
   * model exact and the matches independent: |z| ≲ 2 is what sampling noise alone gives.
   */
  z: number;
  /** se / model_mean_p: the relative difference sampling noise alone gives (one standard error). */
  rel_se: number;
}

/** The calibration of a set of matches. */
export interface BuilderCalibration {
  /** Matches with a fitted model. */
  matches: number;
  /** Matches skipped: no 1X2 at kick-off, or the model refused the odds. */
  skipped: number;
  lines: CalibrationLine[];
}

const total = (line: string) => ({ total: line });
const leg = (type: number, odd: string, specifiers?: Record<string, string>): CalibrationLeg =>
  specifiers ? { type, odd, specifiers } : { type, odd };
const HOME = leg(F.ONE_X_TWO, 'home');
const DRAW = leg(F.ONE_X_TWO, 'draw');
const AWAY = leg(F.ONE_X_TWO, 'away');
const HOME_OR_DRAW = leg(F.DOUBLE_CHANCE, 'home_or_draw');
const DRAW_OR_AWAY = leg(F.DOUBLE_CHANCE, 'draw_or_away');
const HOME_OR_AWAY = leg(F.DOUBLE_CHANCE, 'home_or_away');
const BTTS = leg(F.BOTH_TEAMS_TO_SCORE, 'yes');
const NO_BTTS = leg(F.BOTH_TEAMS_TO_SCORE, 'no');
const over = (line: string) => leg(F.TOTAL, 'over', total(line));
const under = (line: string) => leg(F.TOTAL, 'under', total(line));
const homeOver = (line: string) => leg(F.HOME_TOTAL, 'over', total(line));
const awayOver = (line: string) => leg(F.AWAY_TOTAL, 'over', total(line));

/**
 * Common builder combinations (35, no two won by the same set of final scores): 1X2, double chance, totals
 * 1.5/2.5/3.5, both teams to score, team totals.
 */
export const COMMON_COMBINATIONS: readonly CalibrationCombination[] = [
  { name: 'home & over 2.5', legs: [HOME, over('2.5')] },
  { name: 'home & under 2.5', legs: [HOME, under('2.5')] },
  { name: 'draw & under 2.5', legs: [DRAW, under('2.5')] },
  { name: 'away & over 2.5', legs: [AWAY, over('2.5')] },
  { name: 'away & under 2.5', legs: [AWAY, under('2.5')] },
  { name: 'home & over 1.5', legs: [HOME, over('1.5')] },
  { name: 'away & over 1.5', legs: [AWAY, over('1.5')] },
  { name: 'home & under 3.5', legs: [HOME, under('3.5')] },
  { name: 'away & under 3.5', legs: [AWAY, under('3.5')] },
  { name: 'home & btts', legs: [HOME, BTTS] },
  { name: 'home & btts no', legs: [HOME, NO_BTTS] },
  { name: 'draw & btts', legs: [DRAW, BTTS] },
  { name: 'draw & btts no', legs: [DRAW, NO_BTTS] },
  { name: 'away & btts', legs: [AWAY, BTTS] },
  { name: 'away & btts no', legs: [AWAY, NO_BTTS] },
  { name: 'btts & over 2.5', legs: [BTTS, over('2.5')] },
  { name: 'btts & under 2.5', legs: [BTTS, under('2.5')] },
  { name: 'btts no & over 2.5', legs: [NO_BTTS, over('2.5')] },
  { name: 'btts no & under 2.5', legs: [NO_BTTS, under('2.5')] },
  { name: 'btts & over 3.5', legs: [BTTS, over('3.5')] },
  { name: 'home or draw & under 2.5', legs: [HOME_OR_DRAW, under('2.5')] },
  { name: 'draw or away & under 2.5', legs: [DRAW_OR_AWAY, under('2.5')] },
  { name: 'home or away & over 2.5', legs: [HOME_OR_AWAY, over('2.5')] },
  { name: 'home or draw & btts', legs: [HOME_OR_DRAW, BTTS] },
  { name: 'draw or away & btts', legs: [DRAW_OR_AWAY, BTTS] },
  { name: 'home or draw & over 1.5', legs: [HOME_OR_DRAW, over('1.5')] },
  { name: 'home total over 1.5 & under 3.5', legs: [homeOver('1.5'), under('3.5')] },
  { name: 'away total over 0.5 & under 2.5', legs: [awayOver('0.5'), under('2.5')] },
  { name: 'home total over 1.5 & away total over 0.5', legs: [homeOver('1.5'), awayOver('0.5')] },
  { name: 'home & btts & over 3.5', legs: [HOME, BTTS, over('3.5')] },
  { name: 'away & btts & over 3.5', legs: [AWAY, BTTS, over('3.5')] },
  { name: 'home & btts no & over 1.5', legs: [HOME, NO_BTTS, over('1.5')] },
  { name: 'home or away & btts & under 3.5', legs: [HOME_OR_AWAY, BTTS, under('3.5')] },
  { name: 'home or draw & btts & over 2.5', legs: [HOME_OR_DRAW, BTTS, over('2.5')] },
  { name: 'draw or away & btts no & under 3.5', legs: [DRAW_OR_AWAY, NO_BTTS, under('3.5')] },
];

/**
 * A football-data match at kick-off: its closing odds per market, the opening ones where the closing are missing
 * (what the replay quotes at kick-off); undefined without any 1X2.
 */
export function calibrationMatchOf(row: MatchRow): CalibrationMatch | undefined {
  const x = row.odds.closing['1x2'] ?? row.odds.opening['1x2'];
  if (!x) return undefined;
  const t = row.odds.closing.total ?? row.odds.opening.total;
  return {
    id: `${row.date}/${row.home}/${row.away}`,
    oneXTwo: { home: x.home, draw: x.draw, away: x.away },
    ...(t ? { total: { line: t.line, over: t.over, under: t.under } } : {}),
    fullTime: row.fullTime,
  };
}

function resolve(c: CalibrationCombination): FootballOdd[] {
  return c.legs.map((l) => {
    const r = footballOdd(l.type, l.specifiers ?? {}, l.odd);
    if (!r.ok) throw new Error(`combination ${c.name}: ${r.message}`);
    return r.odd;
  });
}

const open = (value: string) => ({ value, status: 0, is_active: true });

function eventOf(m: CalibrationMatch): BuilderEventInput {
  const markets: BuilderEventInput['markets'] = {
    '1': {
      type_id: F.ONE_X_TWO,
      status: 0,
      specifiers: {},
      odds: { home: open(m.oneXTwo.home), draw: open(m.oneXTwo.draw), away: open(m.oneXTwo.away) },
    },
  };
  if (!m.total) return { id: m.id, sport_id: 'football', markets };
  return {
    id: m.id,
    sport_id: 'football',
    markets: {
      ...markets,
      [`18:total=${m.total.line}`]: {
        type_id: F.TOTAL,
        status: 0,
        specifiers: { total: m.total.line },
        odds: { over: open(m.total.over), under: open(m.total.under) },
      },
    },
  };
}

/**
 * Fits the model to every match and compares, per combination, its mean probability with the hit rate.
 *
 * @throws Error when a combination names a leg core's football markets do not resolve (a programming error).
 */
export function builderCalibration(
  matches: Iterable<CalibrationMatch>,
  combinations: readonly CalibrationCombination[] = COMMON_COMBINATIONS,
): BuilderCalibration {
  const resolved = combinations.map(resolve);
  const sums = combinations.map(() => ({ p: 0, v: 0, hits: 0, n: 0 }));
  let fitted = 0;
  let skipped = 0;
  for (const m of matches) {
    const model = builderModel(eventOf(m));
    if (!model.ok) {
      skipped++;
      continue;
    }
    fitted++;
    for (const [i, legs] of resolved.entries()) {
      const p = toFloat(builderProbabilities(model.value.matrix, legs).win);
      const s = sums[i]!;
      s.p += p;
      s.v += p * (1 - p);
      s.n++;
      if (legs.every((l) => l.result(m.fullTime) === 1)) s.hits++;
    }
  }
  return {
    matches: fitted,
    skipped,
    lines: combinations.map((c, i) => {
      const s = sums[i]!;
      const mean = s.n ? s.p / s.n : 0;
      const rate = s.n ? s.hits / s.n : 0;
      const se = s.n ? Math.sqrt(s.v) / s.n : 0;
      return {
        name: c.name,
        n: s.n,
        hits: s.hits,
        model_mean_p: mean,
        hit_rate: rate,
        rel_diff: s.hits ? (mean - rate) / rate : null,
        z: se > 0 ? (rate - mean) / se : 0,
        rel_se: mean > 0 ? se / mean : 0,
      };
    }),
  };
}

/** Whether a line meets the calibration target: n ≥ `minN` and |relative difference| ≤ `tolerance`. */
export function calibrated(line: CalibrationLine, minN = 100, tolerance = 0.1): boolean {
  return line.n >= minN && line.rel_diff !== null && Math.abs(line.rel_diff) <= tolerance;
}

/** The calibration as text lines (a table), for the replay report and the bench. */
export function formatBuilderCalibration(c: BuilderCalibration, indent = '  '): string[] {
  const ok = c.lines.filter((l) => calibrated(l)).length;
  const big = c.lines.filter((l) => l.n >= 100).length;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const out = [
    `Bet builder calibration: ${c.matches} matches fitted at kick-off odds (${c.skipped} skipped); ` +
      `${ok} of ${big} combinations with n ≥ 100 within 10 % (relative) of the hit rate`,
    `${indent}${'combination'.padEnd(44)}${'n'.padStart(6)}${'hits'.padStart(6)}${'model p'.padStart(9)}` +
      `${'hit rate'.padStart(9)}${'rel diff'.padStart(9)}${'rel se'.padStart(8)}${'z'.padStart(7)}`,
  ];
  for (const l of c.lines) {
    out.push(
      `${indent}${l.name.padEnd(44)}${String(l.n).padStart(6)}${String(l.hits).padStart(6)}` +
        `${pct(l.model_mean_p).padStart(9)}${pct(l.hit_rate).padStart(9)}` +
        `${(l.rel_diff === null ? '-' : `${l.rel_diff >= 0 ? '+' : ''}${pct(l.rel_diff)}`).padStart(9)}` +
        `${pct(l.rel_se).padStart(8)}${l.z.toFixed(2).padStart(7)}${calibrated(l) ? '' : ' *'}`,
    );
  }
  out.push(
    `${indent}(rel diff = (model p − hit rate) / hit rate; rel se = one standard error of the hit rate / model p; ` +
      `z = (hit rate − model p) / se; * = outside 10 % or n < 100)`,
  );
  return out;
}
