/**
 * Odd statuses from a real score (spec 02 "Odd status": 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded):
 * 1X2 from the full-time score, total goals over/under a line, Asian handicap on the home line. Lines are exact
 * rationals (multiples of 1/4); a quarter line splits the stake over its two neighbouring lines.
 *
 * @packageDocumentation
 */
import type { Market } from '@bookie/contracts';
import { add, compare, fromInteger, neg, ODD_STATUS, type Rational, rational, sub, ZERO } from '@bookie/core';
import { type GoalScore, parseLine } from './football-data.js';
import { LINE_SPECIFIER, marketKindOf, OUTCOMES } from './markets.js';

/** A settled odd status: 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded. */
export type ResultStatus = 1 | 2 | 3 | 4 | 5;

const { WIN, LOSS, HALF_WIN, HALF_LOSS, REFUNDED } = ODD_STATUS;
const QUARTER = rational(1n, 4n);

/** Result of a bet on a whole or half line: margin > 0 wins, < 0 loses, = 0 refunds. */
function simpleResult(margin: Rational): 1 | 2 | 5 {
  const c = compare(margin, ZERO);
  return c > 0 ? WIN : c < 0 ? LOSS : REFUNDED;
}

/**
 * The result of a bet on a line: it wins when `forGoals + line − againstGoals` is positive, loses when negative,
 * is refunded at zero (whole lines). A quarter line (line × 4 odd, e.g. −0.25, +1.75) is two half stakes on
 * line − 0.25 and line + 0.25: both win → win, win + refund → half win, loss + refund → half loss, both lose → loss.
 *
 * @throws RangeError when `line` is not a multiple of 1/4 or goals are not non-negative integers.
 */
export function lineResult(forGoals: number, againstGoals: number, line: Rational): ResultStatus {
  for (const g of [forGoals, againstGoals]) {
    if (!Number.isSafeInteger(g) || g < 0) throw new RangeError(`lineResult: bad goal count ${g}`);
  }
  if (4n % line.den !== 0n) throw new RangeError('lineResult: line must be a multiple of 0.25');
  const quarters = line.num * (4n / line.den);
  const base = sub(fromInteger(forGoals), fromInteger(againstGoals));
  if (quarters % 2n === 0n) return simpleResult(add(base, line));
  const lower = simpleResult(add(base, sub(line, QUARTER)));
  const upper = simpleResult(add(base, add(line, QUARTER)));
  return combineHalves(lower, upper);
}

/** The status of a stake split in two halves with these results (see {@link lineResult}). */
export function combineHalves(a: 1 | 2 | 5, b: 1 | 2 | 5): ResultStatus {
  if (a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has(REFUNDED) && pair.has(WIN)) return HALF_WIN;
  if (pair.has(REFUNDED) && pair.has(LOSS)) return HALF_LOSS;
  // a win and a loss 0.5 apart cannot happen with whole goals; a half win + half loss would be a refund of sorts,
  // but no Asian line produces it
  throw new RangeError(`combineHalves: impossible pair ${a}/${b}`);
}

/** 1X2 from the full-time score. */
export function oneXTwoResult(score: GoalScore): {
  home: ResultStatus;
  draw: ResultStatus;
  away: ResultStatus;
} {
  const c = Math.sign(score.home - score.away);
  return {
    home: c > 0 ? WIN : LOSS,
    draw: c === 0 ? WIN : LOSS,
    away: c < 0 ? WIN : LOSS,
  };
}

/** Total goals over/under `line` (a decimal string such as `"2.5"`; whole and quarter lines work too). */
export function totalResult(score: GoalScore, line: string): { over: ResultStatus; under: ResultStatus } {
  const l = parseLine(line, 'total');
  const goals = score.home + score.away;
  return { over: lineResult(goals, 0, neg(l)), under: lineResult(0, goals, l) };
}

/**
 * Asian handicap with the home team's line `homeLine` (as in the CSV, e.g. `"-0.25"`): the home side adds the
 * line to the home goals, the away side adds its negation to the away goals; each is resulted on its own.
 */
export function asianHandicapResult(
  score: GoalScore,
  homeLine: string,
): { home: ResultStatus; away: ResultStatus } {
  const h = parseLine(homeLine, 'hcp');
  return { home: lineResult(score.home, score.away, h), away: lineResult(score.away, score.home, neg(h)) };
}

/**
 * The status of every odd of a replayed market (1X2, total, Asian handicap; found by `type_id` and specifiers)
 * from the full-time score.
 *
 * @throws TypeError for a market type the simulator does not make, or a missing line specifier.
 */
export function marketResults(
  market: Pick<Market, 'type_id' | 'specifiers'>,
  score: GoalScore,
): Record<string, ResultStatus> {
  const kind = marketKindOf(market.type_id);
  if (!kind) throw new TypeError(`marketResults: unknown market type ${market.type_id}`);
  const spec = LINE_SPECIFIER[kind];
  const line = spec === undefined ? undefined : market.specifiers[spec];
  if (spec !== undefined && line === undefined) throw new TypeError(`marketResults: ${kind} without ${spec}`);
  const r: Record<string, ResultStatus> =
    kind === '1x2'
      ? oneXTwoResult(score)
      : kind === 'total'
        ? totalResult(score, line!)
        : asianHandicapResult(score, line!);
  for (const o of OUTCOMES[kind]) if (r[o] === undefined) throw new TypeError(`marketResults: no ${o}`);
  return r;
}
