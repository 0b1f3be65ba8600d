/**
 * Test helpers: the season files shipped in `packages/simulator/data/`, and a builder of small football-data CSVs.
 *
 * @packageDocumentation
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the CSV files shipped with the package (see data/ATTRIBUTION.md). */
export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'data');

/** Path of a shipped season file, e.g. `dataFile('E0_2324.csv')`. */
export function dataFile(name: string): string {
  return join(DATA_DIR, name);
}

/** The columns of a 2019/20+ football-data file that the importer reads (a subset, in file order). */
export const SAMPLE_COLUMNS = [
  'Div',
  'Date',
  'Time',
  'HomeTeam',
  'AwayTeam',
  'FTHG',
  'FTAG',
  'HTHG',
  'HTAG',
  'B365H',
  'B365D',
  'B365A',
  'PSH',
  'PSD',
  'PSA',
  'AvgH',
  'AvgD',
  'AvgA',
  'B365>2.5',
  'B365<2.5',
  'P>2.5',
  'P<2.5',
  'Avg>2.5',
  'Avg<2.5',
  'AHh',
  'B365AHH',
  'B365AHA',
  'PAHH',
  'PAHA',
  'AvgAHH',
  'AvgAHA',
  'B365CH',
  'B365CD',
  'B365CA',
  'B365C>2.5',
  'B365C<2.5',
  'AHCh',
  'B365CAHH',
  'B365CAHA',
] as const;

/** A complete valid row (Arsenal v Chelsea, 2-1, HT 1-0, AH −0.25 moving to −0.5 at close). */
export const SAMPLE_ROW: Readonly<Record<string, string>> = {
  Div: 'E0',
  Date: '12/08/2023',
  Time: '15:00',
  HomeTeam: 'Arsenal',
  AwayTeam: 'Chelsea',
  FTHG: '2',
  FTAG: '1',
  HTHG: '1',
  HTAG: '0',
  B365H: '2.1',
  B365D: '3.4',
  B365A: '3.5',
  PSH: '2.15',
  PSD: '3.45',
  PSA: '3.6',
  AvgH: '2.08',
  AvgD: '3.38',
  AvgA: '3.48',
  'B365>2.5': '1.8',
  'B365<2.5': '2.0',
  'P>2.5': '1.83',
  'P<2.5': '2.05',
  'Avg>2.5': '1.79',
  'Avg<2.5': '2.02',
  AHh: '-0.25',
  B365AHH: '1.95',
  B365AHA: '1.95',
  PAHH: '1.97',
  PAHA: '1.96',
  AvgAHH: '1.93',
  AvgAHA: '1.94',
  B365CH: '2.0',
  B365CD: '3.5',
  B365CA: '3.75',
  'B365C>2.5': '1.75',
  'B365C<2.5': '2.05',
  AHCh: '-0.25',
  B365CAHH: '1.9',
  B365CAHA: '2.0',
};

/**
 * A CSV text with `columns` as header and one line per row (missing cells empty; a cell is written raw, so
 * callers quote what needs quoting).
 */
export function csvOf(
  rows: readonly Readonly<Record<string, string>>[],
  columns: readonly string[] = SAMPLE_COLUMNS,
): string {
  return (
    [columns.join(','), ...rows.map((r) => columns.map((c) => r[c] ?? '').join(','))].join('\r\n') + '\r\n'
  );
}
