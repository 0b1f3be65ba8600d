/**
 * The football-data.co.uk CSV importer: one typed {@link MatchRow} per match (teams, kick-off in UTC, half-time and
 * full-time score, opening and closing odds of the three markets Bookie replays), with every data gap and every
 * malformed cell reported by file, line and column (docs/adr/0010-replay-importer.md).
 *
 * Odds stay exact decimal strings as written in the CSV (`"8.0"`); nothing here goes through JS `number` except
 * goal counts.
 *
 * @packageDocumentation
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { compare, ONE, parseDecimal, type Rational, validationError } from '@bookie/core';
import { CsvError, parse } from 'csv-parse/sync';
import { UK_TIME_ZONE, zonedTimeToUtc } from './zoned-time.js';

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

/** A bookmaker source of one market: its columns, in the order home/draw/away, over/under or home/away. */
interface Source {
  name: string;
  columns: readonly string[];
  /** Asian handicap: the column holding the line these odds are quoted on. */
  lineColumn?: string;
}

/**
 * Where each market's odds are read, per phase, in fallback order: Bet365 first, then Pinnacle, then the market
 * average; for files before 2019/20, BetBrain's average. A source is used only when all its columns of that market
 * hold valid odds, so one market never mixes bookmakers.
 */
export const ODDS_SOURCES: Readonly<Record<OddsPhase, Readonly<Record<MarketKind, readonly Source[]>>>> = {
  opening: {
    '1x2': [
      { name: 'bet365', columns: ['B365H', 'B365D', 'B365A'] },
      { name: 'pinnacle', columns: ['PSH', 'PSD', 'PSA'] },
      { name: 'average', columns: ['AvgH', 'AvgD', 'AvgA'] },
      { name: 'betbrain_average', columns: ['BbAvH', 'BbAvD', 'BbAvA'] },
    ],
    total: [
      { name: 'bet365', columns: ['B365>2.5', 'B365<2.5'] },
      { name: 'pinnacle', columns: ['P>2.5', 'P<2.5'] },
      { name: 'average', columns: ['Avg>2.5', 'Avg<2.5'] },
      { name: 'betbrain_average', columns: ['BbAv>2.5', 'BbAv<2.5'] },
    ],
    asian_handicap: [
      { name: 'bet365', columns: ['B365AHH', 'B365AHA'], lineColumn: 'AHh' },
      { name: 'pinnacle', columns: ['PAHH', 'PAHA'], lineColumn: 'AHh' },
      { name: 'average', columns: ['AvgAHH', 'AvgAHA'], lineColumn: 'AHh' },
      { name: 'betbrain_average', columns: ['BbAvAHH', 'BbAvAHA'], lineColumn: 'BbAHh' },
    ],
  },
  closing: {
    '1x2': [
      { name: 'bet365', columns: ['B365CH', 'B365CD', 'B365CA'] },
      { name: 'pinnacle', columns: ['PSCH', 'PSCD', 'PSCA'] },
      { name: 'average', columns: ['AvgCH', 'AvgCD', 'AvgCA'] },
    ],
    total: [
      { name: 'bet365', columns: ['B365C>2.5', 'B365C<2.5'] },
      { name: 'pinnacle', columns: ['PC>2.5', 'PC<2.5'] },
      { name: 'average', columns: ['AvgC>2.5', 'AvgC<2.5'] },
    ],
    asian_handicap: [
      { name: 'bet365', columns: ['B365CAHH', 'B365CAHA'], lineColumn: 'AHCh' },
      { name: 'pinnacle', columns: ['PCAHH', 'PCAHA'], lineColumn: 'AHCh' },
      { name: 'average', columns: ['AvgCAHH', 'AvgCAHA'], lineColumn: 'AHCh' },
    ],
  },
};

/** The only total line football-data quotes. */
export const TOTAL_LINE = '2.5';

const REQUIRED_COLUMNS = ['Date', 'HomeTeam', 'AwayTeam', 'FTHG', 'FTAG'] as const;

/** Options of {@link parseFootballData}. */
export interface ParseOptions {
  /** File name used in problems and notes (and the league fallback), e.g. `E0_2324.csv`. */
  file?: string;
  /** League code when the file has no `Div` column (default: the file name before `_`). */
  league?: string;
  /** Throw {@link FootballDataError} when any row is malformed (default true). */
  strict?: boolean;
}

/**
 * Parses the text of a football-data.co.uk CSV.
 *
 * - Date `dd/mm/yyyy` (or `dd/mm/yy`, read as 20yy) and Time `HH:MM` in UK local time, converted to UTC with the
 *   Europe/London rules; no Time → {@link DEFAULT_KICK_OFF}.
 * - Odds of each market and phase from the first source of {@link ODDS_SOURCES} whose cells all hold valid odds
 *   (> 1); empty cells and placeholders such as `0.0` fall through to the next source (noted). A market with no
 *   quote in either phase is skipped (noted); with only one phase, that phase serves for both.
 * - A malformed row (bad date, time, team, goal count, AH line, or an odds cell that is not a decimal) is a
 *   problem naming file, line and column; it is left out, and with `strict` (default) the whole parse throws.
 *
 * @throws FootballDataError when strict and anything is malformed (all problems listed), or when the text is not
 *   CSV at all.
 */
export function parseFootballData(text: string, options: ParseOptions = {}): ParsedSeason {
  const file = options.file ?? 'input.csv';
  const problems: FootballDataProblem[] = [];
  const notes: FootballDataNote[] = [];
  const matches: MatchRow[] = [];
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    const line = err instanceof CsvError && typeof err.lines === 'number' ? err.lines : 1;
    throw new FootballDataError([{ file, line, message: `not valid CSV: ${(err as Error).message}` }]);
  }
  const header = parsed[0]?.record;
  if (!header) throw new FootballDataError([{ file, line: 1, message: 'empty file' }]);
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length > 0) {
    throw new FootballDataError(
      missing.map((column) => ({ file, line: 1, column, message: 'required column is missing' })),
    );
  }
  const defaultLeague = options.league ?? basename(file).split(/[_.]/)[0] ?? 'unknown';
  const seen = new Map<string, number>();

  for (let r = 1; r < parsed.length; r++) {
    const cells = parsed[r]!.record;
    // the line where the record ends: its line, as football-data never quotes line breaks
    const line = parsed[r]!.info.lines;
    const cell = (column: string): string => {
      const i = index.get(column);
      return i === undefined ? '' : (cells[i] ?? '');
    };
    const rowProblems: FootballDataProblem[] = [];
    const bad = (column: string | undefined, message: string) => {
      // one problem per cell, even when several sources read it (the AH line column)
      if (column && rowProblems.some((p) => p.column === column)) return;
      rowProblems.push({ file, line, ...(column ? { column } : {}), message });
    };

    if (cells.every((c) => c === '')) continue;
    if (cells.length !== header.length) {
      bad(undefined, `has ${cells.length} cells, the header has ${header.length}`);
    }
    const date = parseDate(cell('Date'));
    if (!date) bad('Date', `must be a date dd/mm/yyyy, got "${cell('Date')}"`);
    const rawTime = cell('Time');
    const time = rawTime === '' ? parseTime(DEFAULT_KICK_OFF) : parseTime(rawTime);
    if (!time) bad('Time', `must be a time HH:MM, got "${rawTime}"`);
    const home = cell('HomeTeam');
    const away = cell('AwayTeam');
    if (home === '') bad('HomeTeam', 'must not be empty');
    if (away === '') bad('AwayTeam', 'must not be empty');
    if (home !== '' && home === away) bad('AwayTeam', `equals HomeTeam "${home}"`);
    const ft = goals(cell, 'FTHG', 'FTAG', bad, true);
    const ht = goals(cell, 'HTHG', 'HTAG', bad, false);
    if (ft && ht && (ht.home > ft.home || ht.away > ft.away)) {
      bad(ht.home > ft.home ? 'HTHG' : 'HTAG', 'half-time goals exceed full-time goals');
    }
    const league = cell('Div') || defaultLeague;

    const odds = { opening: {} as PhaseOdds, closing: {} as PhaseOdds };
    const rowNotes: FootballDataNote[] = [];
    for (const phase of ['opening', 'closing'] as const) {
      for (const market of MARKET_KINDS) {
        const quote = readQuote(cell, index, phase, market, { file, line }, bad, rowNotes);
        if (quote) (odds[phase] as Record<MarketKind, unknown>)[market] = quote;
      }
    }
    if (rowProblems.length > 0 || !date || !time || !ft) {
      problems.push(...rowProblems);
      continue;
    }
    const key = `${league}|${date.iso}|${home}|${away}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ file, line, message: `duplicate of the match on line ${first}` });
      continue;
    }
    seen.set(key, line);

    if (rawTime === '') {
      rowNotes.push({
        file,
        line,
        kind: 'time_defaulted',
        column: 'Time',
        message: `no kick-off time; ${DEFAULT_KICK_OFF} UK time assumed`,
      });
    }
    const skippedMarkets: MarketKind[] = [];
    for (const market of MARKET_KINDS) {
      if (!odds.opening[market] && !odds.closing[market]) {
        skippedMarkets.push(market);
        rowNotes.push({
          file,
          line,
          kind: 'market_skipped',
          market,
          message: `no ${market} odds: not offered`,
        });
      }
    }
    const openLine = odds.opening.asian_handicap?.line;
    const closeLine = odds.closing.asian_handicap?.line;
    if (openLine !== undefined && closeLine !== undefined && !sameLine(openLine, closeLine)) {
      rowNotes.push({
        file,
        line,
        kind: 'line_moved',
        market: 'asian_handicap',
        phase: 'closing',
        message: `closing Asian line ${closeLine} differs from the opening line ${openLine}`,
      });
    }
    notes.push(...rowNotes);
    const kickOffMs = zonedTimeToUtc({ ...date, ...time }, UK_TIME_ZONE);
    matches.push({
      file: basename(file),
      line,
      league,
      season: seasonOf(date.year, date.month),
      date: date.iso,
      localTime: `${pad(time.hour)}:${pad(time.minute)}`,
      timeDefaulted: rawTime === '',
      kickOff: new Date(kickOffMs).toISOString(),
      kickOffMs,
      home,
      away,
      fullTime: ft,
      ...(ht ? { halfTime: ht } : {}),
      odds,
      skippedMarkets,
    });
  }
  if ((options.strict ?? true) && problems.length > 0) throw new FootballDataError(problems);
  return { file: basename(file), matches, problems, notes };
}

/** Reads and parses a football-data CSV file (see {@link parseFootballData}). */
export async function readFootballData(
  path: string,
  options: Omit<ParseOptions, 'file'> = {},
): Promise<ParsedSeason> {
  const text = await readFile(path, 'utf8');
  return parseFootballData(text, { ...options, file: basename(path) });
}

/** True when two AH lines are the same number (`"0.0"` and `"0"`, `"-1.0"` and `"-1"`). */
export function sameLine(a: string, b: string): boolean {
  return compare(parseLine(a, 'line'), parseLine(b, 'line')) === 0;
}

/**
 * Parses a handicap or total line exactly: a decimal that is a multiple of 0.25 (e.g. `"-0.25"`, `"1.0"`).
 *
 * @throws DomainError validation_error naming `field` when it is not.
 */
export function parseLine(text: string, field: string): Rational {
  const r = parseDecimal(text, { field, allowNegative: true, maxDecimals: 4, maxIntegerDigits: 3 });
  if (r.den !== 1n && r.den !== 2n && r.den !== 4n) {
    throw validationError(field, `must be a multiple of 0.25, got "${text}"`);
  }
  return r;
}

function readQuote(
  cell: (c: string) => string,
  index: Map<string, number>,
  phase: OddsPhase,
  market: MarketKind,
  at: { file: string; line: number },
  bad: (column: string | undefined, message: string) => void,
  notes: FootballDataNote[],
): OneXTwoQuote | TotalQuote | AsianQuote | undefined {
  const sources = ODDS_SOURCES[phase][market];
  let tried = 0;
  for (const [rank, source] of sources.entries()) {
    if (!source.columns.every((c) => index.has(c))) continue;
    tried++;
    const values: string[] = [];
    let usable = true;
    for (const column of source.columns) {
      const raw = cell(column);
      if (raw === '') {
        usable = false;
        continue;
      }
      const odds = oddsValue(raw);
      if (odds === 'malformed') {
        bad(column, `must be decimal odds like "1.85", got "${raw}"`);
        usable = false;
      } else if (odds === 'placeholder') {
        notes.push({
          ...at,
          kind: 'placeholder_odds',
          market,
          phase,
          column,
          source: source.name,
          message: `"${raw}" is not a price (odds must exceed 1); ignored`,
        });
        usable = false;
      } else {
        values.push(raw);
      }
    }
    let line: string | undefined;
    if (usable && source.lineColumn) {
      const raw = cell(source.lineColumn);
      if (raw === '') usable = false;
      else {
        try {
          parseLine(raw, source.lineColumn);
          line = raw;
        } catch {
          bad(source.lineColumn, `must be a handicap line, a multiple of 0.25, got "${raw}"`);
          usable = false;
        }
      }
    }
    if (!usable) continue;
    if (rank > 0) {
      notes.push({
        ...at,
        kind: 'fallback_source',
        market,
        phase,
        source: source.name,
        message: `${market} ${phase} odds from ${source.name} (${sources
          .slice(0, rank)
          .map((s) => s.name)
          .join(', ')} missing)`,
      });
    }
    switch (market) {
      case '1x2':
        return { source: source.name, home: values[0]!, draw: values[1]!, away: values[2]! };
      case 'total':
        return { source: source.name, line: TOTAL_LINE, over: values[0]!, under: values[1]! };
      case 'asian_handicap':
        return { source: source.name, line: line!, home: values[0]!, away: values[1]! };
    }
  }
  if (tried > 0) notes.push({ ...at, kind: 'no_odds', market, phase, message: `no ${phase} ${market} odds` });
  return undefined;
}

function oddsValue(raw: string): 'malformed' | 'placeholder' | Rational {
  let r: Rational;
  try {
    r = parseDecimal(raw, { field: 'odds', maxDecimals: 12 });
  } catch {
    return 'malformed';
  }
  return compare(r, ONE) <= 0 ? 'placeholder' : r;
}

function goals(
  cell: (c: string) => string,
  homeColumn: string,
  awayColumn: string,
  bad: (column: string, message: string) => void,
  required: boolean,
): GoalScore | undefined {
  const h = cell(homeColumn);
  const a = cell(awayColumn);
  if (!required && h === '' && a === '') return undefined;
  let ok = true;
  for (const [column, v] of [
    [homeColumn, h],
    [awayColumn, a],
  ] as const) {
    if (!/^\d{1,2}$/.test(v)) {
      bad(column, `must be a goal count, got "${v}"`);
      ok = false;
    }
  }
  return ok ? { home: Number(h), away: Number(a) } : undefined;
}

function parseDate(text: string): { year: number; month: number; day: number; iso: string } | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{2}|\d{4})$/.exec(text);
  if (!m) return undefined;
  const day = Number(m[1]);
  const month = Number(m[2]);
  const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return undefined;
  }
  return { year, month, day, iso: `${year}-${pad(month)}-${pad(day)}` };
}

function parseTime(text: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return undefined;
  return { hour, minute };
}

function seasonOf(year: number, month: number): string {
  const start = month >= 7 ? year : year - 1;
  return `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
