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
import { CsvError, parse } from 'csv-parse/sync';
import { ODDS_SOURCES, readQuote, sameLine } from './football-data-odds.js';
import {
  DEFAULT_KICK_OFF,
  FootballDataError,
  type FootballDataNote,
  type FootballDataProblem,
  type GoalScore,
  MARKET_KINDS,
  type MarketKind,
  type MatchRow,
  type ParsedSeason,
  type PhaseOdds,
} from './football-data-rows.js';
import { UK_TIME_ZONE, zonedTimeToUtc } from './zoned-time.js';

export * from './football-data-odds.js';
export * from './football-data-rows.js';

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
