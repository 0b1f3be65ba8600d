/**
 * Where the football-data.co.uk importer reads each market's odds (bookmaker sources in fallback order) and how it
 * reads one quote; handicap and total lines read exactly. Odds stay the decimal strings written in the CSV.
 */
import { compare, ONE, parseDecimal, type Rational, validationError } from '@bookie/core';
import type {
  AsianQuote,
  FootballDataNote,
  MarketKind,
  OddsPhase,
  OneXTwoQuote,
  TotalQuote,
} from './football-data-rows.js';

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

export function readQuote(
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
