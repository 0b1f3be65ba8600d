/**
 * What the football-data.co.uk importer reads a CSV into: one typed match row per match with its quotes, and the
 * problems (malformed rows, left out) and notes (data gaps handled by a rule) of a parse.
 */

/** The three markets replayed from a football-data row. */
export type MarketKind = '1x2' | 'total' | 'asian_handicap';

/** The markets in the order they appear in a sport event. */
export const MARKET_KINDS: readonly MarketKind[] = ['1x2', 'total', 'asian_handicap'];

/** Opening odds (when football-data collected them, days before) or closing odds (last before kick-off). */
export type OddsPhase = 'opening' | 'closing';

/** 1X2 odds, exact decimal strings as in the CSV. */
export interface OneXTwoQuote {
  source: string;
  home: string;
  draw: string;
  away: string;
}

/** Total goals over/under odds on `line` (football-data only quotes 2.5). */
export interface TotalQuote {
  source: string;
  line: string;
  over: string;
  under: string;
}

/** Asian handicap odds; `line` is the home team's handicap as written in the CSV (e.g. `"-0.25"`, `"1.0"`). */
export interface AsianQuote {
  source: string;
  line: string;
  home: string;
  away: string;
}

/** The quotes of one phase; a market without a usable quote in any source is absent. */
export interface PhaseOdds {
  '1x2'?: OneXTwoQuote;
  total?: TotalQuote;
  asian_handicap?: AsianQuote;
}

/** A goal score. */
export interface GoalScore {
  home: number;
  away: number;
}

/** One match of a football-data CSV. */
export interface MatchRow {
  /** File name the row came from (e.g. `E0_2324.csv`). */
  file: string;
  /** Line of the record in the file, 1-based (the header is line 1). */
  line: number;
  /** League code (`Div`, e.g. `E0`, `SP1`). */
  league: string;
  /** Season label `YYYY/YY` derived from the date (a season starts in July). */
  season: string;
  /** Match date in UK local time, `YYYY-MM-DD`. */
  date: string;
  /** Kick-off in UK local time, `HH:MM`. */
  localTime: string;
  /** True when the file has no `Time` (or it is empty) and {@link DEFAULT_KICK_OFF} was used. */
  timeDefaulted: boolean;
  /** Kick-off instant, ISO 8601 UTC (`2023-08-11T19:00:00.000Z`). */
  kickOff: string;
  /** Kick-off instant, unix ms. */
  kickOffMs: number;
  home: string;
  away: string;
  fullTime: GoalScore;
  /** Half-time score, absent when the file lacks `HTHG`/`HTAG`. */
  halfTime?: GoalScore;
  odds: { opening: PhaseOdds; closing: PhaseOdds };
  /** Markets without any opening or closing quote: not offered for this match. */
  skippedMarkets: MarketKind[];
}

/** Kick-off (UK local time) assumed when a file has no `Time` column or the cell is empty. */
export const DEFAULT_KICK_OFF = '15:00';

/**
 * A malformed cell or row (or a missing required column, reported on line 1): the row is left out of
 * {@link ParsedSeason.matches}; with `strict` (the default) parsing throws {@link FootballDataError}.
 */
export interface FootballDataProblem {
  file: string;
  line: number;
  /** The column at fault, when one is. */
  column?: string;
  message: string;
}

/**
 * A data gap handled by a documented rule (the row is kept): a market skipped, a fallback source used, a placeholder
 * odd (`0.0`) ignored, a default kick-off time, a closing Asian line that moved away from the opening one.
 */
export interface FootballDataNote {
  file: string;
  line: number;
  kind:
    | 'market_skipped'
    | 'fallback_source'
    | 'no_odds'
    | 'placeholder_odds'
    | 'time_defaulted'
    | 'line_moved';
  market?: MarketKind;
  phase?: OddsPhase;
  column?: string;
  /** The source used (fallback_source) or tried. */
  source?: string;
  message: string;
}

/** Result of {@link parseFootballData}. */
export interface ParsedSeason {
  file: string;
  matches: MatchRow[];
  problems: FootballDataProblem[];
  notes: FootballDataNote[];
}

/** Thrown by strict parsing when any row is malformed; `problems` lists every one. */
export class FootballDataError extends Error {
  constructor(readonly problems: FootballDataProblem[]) {
    const head = problems
      .slice(0, 5)
      .map((p) => `${p.file}:${p.line}${p.column ? ` (${p.column})` : ''}: ${p.message}`)
      .join('\n');
    const more = problems.length > 5 ? `\n… and ${problems.length - 5} more` : '';
    super(`${problems.length} malformed football-data row(s):\n${head}${more}`);
    this.name = 'FootballDataError';
  }
}
