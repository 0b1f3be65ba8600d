/**
 * Football markets whose result is a function of the final score (DECISIONS D59: the inner legs a bet builder
 * accepts), with the one result function both the builder's pricing and a settlement from the score use, so the two
 * agree by construction (docs/adr/0042-bet-builder-pricing.md "Legs").
 *
 * Market type ids follow the numbering of Bookie's market dictionary (Unified-Odds style: 1 1X2, 10 double chance,
 * 11 draw no bet, 14 European handicap, 16 Asian handicap, 18 total, 19/20 home/away team total, 29 both teams to
 * score, 45 correct score). Each outcome is known by its Unified-Odds id or by Bookie's name for it (the simulator's
 * book uses the names: `home`, `draw`, `away`, `over`, `under`); correct-score outcomes are the score itself (`2:1`).
 *
 * @packageDocumentation
 */
import {
  add,
  compare,
  fromInteger,
  neg,
  parseDecimal,
  type Rational,
  rational,
  sub,
  ZERO,
} from '../decimal.js';
import { DomainError } from '../errors.js';
import { ODD_STATUS } from '../statuses.js';
import { MAX_LEG_GOALS } from './score-model.js';

/** A final score (regular time, as football markets settle): goals of the home and the away team. */
export interface FinalScore {
  readonly home: number;
  readonly away: number;
}

/** Type ids of the football markets the builder knows (see the module comment). */
export const FOOTBALL_MARKET = {
  ONE_X_TWO: 1,
  DOUBLE_CHANCE: 10,
  DRAW_NO_BET: 11,
  EUROPEAN_HANDICAP: 14,
  ASIAN_HANDICAP: 16,
  TOTAL: 18,
  HOME_TOTAL: 19,
  AWAY_TOTAL: 20,
  BOTH_TEAMS_TO_SCORE: 29,
  CORRECT_SCORE: 45,
} as const;

/** One of {@link FOOTBALL_MARKET}'s type ids. */
export type FootballMarketType = (typeof FOOTBALL_MARKET)[keyof typeof FOOTBALL_MARKET];

/** A score-decided result: an odd status 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded (the feed contract, "Odd status"). */
export type ScoreResult = 1 | 2 | 3 | 4 | 5;

/** Why an odd cannot be an inner leg (a subset of the builder's refusal codes). */
export type FootballOddIssue = 'unsupported_market' | 'unsupported_outcome' | 'unsupported_line';

/**
 * A football odd understood as a function of the final score.
 *
 * - `result(score)`: its odd status for that final score.
 * - `refundable`: some final score refunds it (draw no bet, whole lines).
 * - `split`: a quarter line (some final score gives a half win or a half loss).
 */
export interface FootballOdd {
  readonly typeId: FootballMarketType;
  /** What the odd is, in words, e.g. `total 2.5: over`, `correct score 2:1`. */
  readonly label: string;
  readonly refundable: boolean;
  readonly split: boolean;
  result(score: FinalScore): ScoreResult;
}

/** Either a {@link FootballOdd} or why not. */
export type FootballOddOf =
  | { readonly ok: true; readonly odd: FootballOdd }
  | { readonly ok: false; readonly code: FootballOddIssue; readonly message: string };

const { WIN, LOSS, HALF_WIN, HALF_LOSS, REFUNDED } = ODD_STATUS;
const QUARTER = rational(1n, 4n);

function simple(margin: Rational): 1 | 2 | 5 {
  const c = compare(margin, ZERO);
  return c > 0 ? WIN : c < 0 ? LOSS : REFUNDED;
}

/**
 * The result of a line bet: it wins when `forGoals − againstGoals + line` is positive, loses when negative, is
 * refunded at zero (whole lines). A quarter line (e.g. −0.25, +1.75) is two half stakes on line ∓ 0.25: win and
 * refund → half win, loss and refund → half loss.
 *
 * @param line - a multiple of 1/4 (validated by the callers).
 */
export function lineResult(forGoals: number, againstGoals: number, line: Rational): ScoreResult {
  const base = sub(fromInteger(forGoals), fromInteger(againstGoals));
  if ((line.num * (4n / line.den)) % 2n === 0n) return simple(add(base, line));
  const lower = simple(add(base, sub(line, QUARTER)));
  const upper = simple(add(base, add(line, QUARTER)));
  if (lower === upper) return lower;
  return lower === LOSS || upper === LOSS ? HALF_LOSS : HALF_WIN;
}

const ALIASES: Readonly<Record<number, Readonly<Record<string, string>>>> = {
  [FOOTBALL_MARKET.ONE_X_TWO]: {
    '1': 'home',
    home: 'home',
    '2': 'draw',
    draw: 'draw',
    '3': 'away',
    away: 'away',
  },
  [FOOTBALL_MARKET.DOUBLE_CHANCE]: {
    '9': 'home_or_draw',
    home_or_draw: 'home_or_draw',
    '10': 'home_or_away',
    home_or_away: 'home_or_away',
    '11': 'draw_or_away',
    draw_or_away: 'draw_or_away',
  },
  [FOOTBALL_MARKET.DRAW_NO_BET]: { '4': 'home', home: 'home', '5': 'away', away: 'away' },
  [FOOTBALL_MARKET.EUROPEAN_HANDICAP]: {
    '1711': 'home',
    home: 'home',
    '1712': 'draw',
    draw: 'draw',
    '1713': 'away',
    away: 'away',
  },
  [FOOTBALL_MARKET.ASIAN_HANDICAP]: { '1714': 'home', home: 'home', '1715': 'away', away: 'away' },
  [FOOTBALL_MARKET.TOTAL]: { '12': 'over', over: 'over', '13': 'under', under: 'under' },
  [FOOTBALL_MARKET.HOME_TOTAL]: { '12': 'over', over: 'over', '13': 'under', under: 'under' },
  [FOOTBALL_MARKET.AWAY_TOTAL]: { '12': 'over', over: 'over', '13': 'under', under: 'under' },
  [FOOTBALL_MARKET.BOTH_TEAMS_TO_SCORE]: { '74': 'yes', yes: 'yes', '76': 'no', no: 'no' },
};

const LIMIT = rational(BigInt(MAX_LEG_GOALS));

type LineCheck = { ok: true; line: Rational } | { ok: false; message: string };

function parseLine(raw: string | undefined, name: string, signed: boolean): LineCheck {
  if (raw === undefined) return { ok: false, message: `the market has no "${name}" specifier` };
  let line: Rational;
  try {
    line = parseDecimal(raw, { field: name, allowNegative: signed, maxDecimals: 2, maxIntegerDigits: 3 });
  } catch (e) {
    return { ok: false, message: e instanceof DomainError ? e.message : `${name}: not a line` };
  }
  if (4n % line.den !== 0n) return { ok: false, message: `${name} ${raw} is not a multiple of 0.25` };
  const mag = line.num < 0n ? neg(line) : line;
  if (compare(mag, LIMIT) >= 0)
    return { ok: false, message: `${name} ${raw} is beyond the ${MAX_LEG_GOALS} goals the model prices` };
  return { ok: true, line };
}

function quarter(line: Rational): boolean {
  return (line.num * (4n / line.den)) % 2n !== 0n;
}

function whole(line: Rational): boolean {
  return line.den === 1n;
}

function odd(
  typeId: FootballMarketType,
  label: string,
  result: (s: FinalScore) => ScoreResult,
  line?: Rational,
): FootballOddOf {
  return {
    ok: true,
    odd: Object.freeze({
      typeId,
      label,
      refundable: typeId === FOOTBALL_MARKET.DRAW_NO_BET || (line !== undefined && whole(line)),
      split: line !== undefined && quarter(line),
      result,
    }),
  };
}

const winIf = (b: boolean): ScoreResult => (b ? WIN : LOSS);

/**
 * Resolves a football odd — market type id, the market's specifiers and the odd id — into a function of the final
 * score (see {@link FootballOdd}), or says why it cannot be one:
 * `unsupported_market` (a type that is not a function of the final score, or not modelled),
 * `unsupported_outcome` (an odd id the market does not have), `unsupported_line` (a missing or malformed
 * `total`/`hcp` specifier, a line that is not a multiple of 0.25, or one at or beyond {@link MAX_LEG_GOALS} goals).
 *
 * Specifiers: `total` (18, 19, 20) a non-negative line such as `"2.5"`; `hcp` of the Asian handicap (16) the home
 * team's line such as `"-0.75"` (the away odd takes its negation); `hcp` of the European handicap (14) the
 * head start `"h:a"` (e.g. `"0:1"`: the away team starts one goal up); correct score (45) odd ids `"h:a"`.
 */
export function footballOdd(
  typeId: number,
  specifiers: Readonly<Record<string, string>>,
  oddId: string,
): FootballOddOf {
  const unsupportedOutcome = (): FootballOddOf => ({
    ok: false,
    code: 'unsupported_outcome',
    message: `market type ${typeId} has no odd "${oddId.slice(0, 40)}"`,
  });
  const badLine = (message: string): FootballOddOf => ({ ok: false, code: 'unsupported_line', message });
  const F = FOOTBALL_MARKET;
  if (typeId === F.CORRECT_SCORE) {
    const m = /^(\d{1,2}):(\d{1,2})$/.exec(oddId);
    if (!m) return unsupportedOutcome();
    const h = Number(m[1]);
    const a = Number(m[2]);
    if (h >= MAX_LEG_GOALS || a >= MAX_LEG_GOALS)
      return badLine(`correct score ${oddId} is beyond the ${MAX_LEG_GOALS} goals the model prices`);
    return odd(F.CORRECT_SCORE, `correct score ${h}:${a}`, (s) => winIf(s.home === h && s.away === a));
  }
  const aliases = ALIASES[typeId];
  if (!aliases)
    return {
      ok: false,
      code: 'unsupported_market',
      message: `market type ${typeId} is not a football market decided by the final score`,
    };
  const o = Object.hasOwn(aliases, oddId) ? aliases[oddId] : undefined;
  if (o === undefined) return unsupportedOutcome();
  switch (typeId) {
    case F.ONE_X_TWO:
      return odd(F.ONE_X_TWO, `1X2: ${o}`, (s) =>
        winIf(o === 'home' ? s.home > s.away : o === 'away' ? s.home < s.away : s.home === s.away),
      );
    case F.DOUBLE_CHANCE:
      return odd(F.DOUBLE_CHANCE, `double chance: ${o}`, (s) =>
        winIf(
          o === 'home_or_draw'
            ? s.home >= s.away
            : o === 'draw_or_away'
              ? s.home <= s.away
              : s.home !== s.away,
        ),
      );
    case F.DRAW_NO_BET:
      return odd(F.DRAW_NO_BET, `draw no bet: ${o}`, (s) =>
        s.home === s.away ? REFUNDED : winIf(o === 'home' ? s.home > s.away : s.home < s.away),
      );
    case F.EUROPEAN_HANDICAP: {
      const raw = specifiers.hcp;
      const m = raw === undefined ? null : /^(\d{1,2}):(\d{1,2})$/.exec(raw);
      if (!m)
        return badLine(
          `hcp must be a head start "h:a" such as "0:1", got ${raw === undefined ? 'none' : `"${raw.slice(0, 20)}"`}`,
        );
      const hh = Number(m[1]);
      const ha = Number(m[2]);
      if (hh >= MAX_LEG_GOALS || ha >= MAX_LEG_GOALS)
        return badLine(`hcp ${raw} is beyond the ${MAX_LEG_GOALS} goals the model prices`);
      return odd(F.EUROPEAN_HANDICAP, `handicap ${hh}:${ha}: ${o}`, (s) => {
        const d = s.home + hh - (s.away + ha);
        return winIf(o === 'home' ? d > 0 : o === 'away' ? d < 0 : d === 0);
      });
    }
    case F.ASIAN_HANDICAP: {
      const l = parseLine(specifiers.hcp, 'hcp', true);
      if (!l.ok) return badLine(l.message);
      const line = o === 'home' ? l.line : neg(l.line);
      return odd(
        F.ASIAN_HANDICAP,
        `asian handicap ${specifiers.hcp}: ${o}`,
        (s) => (o === 'home' ? lineResult(s.home, s.away, line) : lineResult(s.away, s.home, line)),
        line,
      );
    }
    case F.TOTAL:
    case F.HOME_TOTAL:
    case F.AWAY_TOTAL: {
      const l = parseLine(specifiers.total, 'total', false);
      if (!l.ok) return badLine(l.message);
      const goals = (s: FinalScore) =>
        typeId === F.TOTAL ? s.home + s.away : typeId === F.HOME_TOTAL ? s.home : s.away;
      const what = typeId === F.TOTAL ? 'total' : typeId === F.HOME_TOTAL ? 'home total' : 'away total';
      return odd(
        typeId,
        `${what} ${specifiers.total}: ${o}`,
        (s) => (o === 'over' ? lineResult(goals(s), 0, neg(l.line)) : lineResult(0, goals(s), l.line)),
        l.line,
      );
    }
    default:
      return odd(F.BOTH_TEAMS_TO_SCORE, `both teams to score: ${o}`, (s) =>
        winIf((s.home > 0 && s.away > 0) === (o === 'yes')),
      );
  }
}

/**
 * The odd status of a football odd for a final score — the settlement of any market {@link footballOdd} knows,
 * the same function the builder prices with.
 *
 * @param field - the field named in errors (default `odd`).
 * @throws DomainError `validation_error` when the odd is not one {@link footballOdd} resolves, or the score is not
 *   two non-negative integers.
 */
export function footballOddResult(
  typeId: number,
  specifiers: Readonly<Record<string, string>>,
  oddId: string,
  score: FinalScore,
  field = 'odd',
): ScoreResult {
  for (const side of ['home', 'away'] as const) {
    const g = score[side];
    if (!Number.isSafeInteger(g) || g < 0)
      throw new DomainError('validation_error', `score.${side}: must be a non-negative integer`, {
        field: `score.${side}`,
      });
  }
  const r = footballOdd(typeId, specifiers, oddId);
  if (!r.ok) throw new DomainError('validation_error', `${field}: ${r.message}`, { field, reason: r.code });
  return r.odd.result(score);
}
