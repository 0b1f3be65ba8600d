import { describe, expect, it } from 'vitest';
import { FootballDataError, parseFootballData, readFootballData, sameLine } from './football-data.js';
import { csvOf, dataFile, SAMPLE_COLUMNS, SAMPLE_ROW } from './testing.js';

const one = (over: Record<string, string>, columns?: readonly string[]) =>
  parseFootballData(csvOf([{ ...SAMPLE_ROW, ...over }], columns), { file: 'T_0000.csv' });

describe('parseFootballData on real seasons', () => {
  it('reads all 380 matches of the 2023/24 Premier League, exactly', async () => {
    const s = await readFootballData(dataFile('E0_2324.csv'));
    expect(s.file).toBe('E0_2324.csv');
    expect(s.matches).toHaveLength(380);
    expect(s.problems).toEqual([]);
    const first = s.matches[0]!;
    expect(first).toMatchObject({
      file: 'E0_2324.csv',
      line: 2,
      league: 'E0',
      season: '2023/24',
      date: '2023-08-11',
      localTime: '20:00',
      timeDefaulted: false,
      kickOff: '2023-08-11T19:00:00.000Z', // BST
      home: 'Burnley',
      away: 'Man City',
      fullTime: { home: 0, away: 3 },
      halfTime: { home: 0, away: 2 },
      skippedMarkets: [],
    });
    expect(first.odds.opening).toEqual({
      '1x2': { source: 'bet365', home: '8.0', draw: '5.5', away: '1.33' },
      total: { source: 'bet365', line: '2.5', over: '1.67', under: '2.2' },
      asian_handicap: { source: 'bet365', line: '1.5', home: '1.86', away: '2.07' },
    });
    expect(first.odds.closing['1x2']).toEqual({ source: 'bet365', home: '9.0', draw: '5.25', away: '1.33' });
    // a winter match is on GMT
    const boxing = s.matches.find((m) => m.date === '2023-12-26' && m.home === 'Bournemouth')!;
    expect(boxing.kickOff).toBe('2023-12-26T15:00:00.000Z');
    expect(boxing.line).toBe(181);
    expect(s.matches.at(-1)!.line).toBe(381);
  });

  it('reads La Liga 2023/24 too (kick-off times are UK time in every league)', async () => {
    const s = await readFootballData(dataFile('SP1_2324.csv'));
    expect(s.matches).toHaveLength(380);
    expect(s.problems).toEqual([]);
    expect(s.matches.every((m) => m.league === 'SP1' && m.skippedMarkets.length === 0)).toBe(true);
    // the closing Asian line often differs from the opening one: noted for the report
    expect(s.notes.filter((n) => n.kind === 'line_moved').length).toBeGreaterThan(50);
  });
});

describe('parseFootballData rules', () => {
  it('falls back Bet365 → Pinnacle → average per market, never mixing bookmakers', () => {
    const s = one({ B365H: '', PSH: '', 'B365<2.5': '', B365AHH: '' });
    const o = s.matches[0]!.odds.opening;
    expect(o['1x2']).toEqual({ source: 'average', home: '2.08', draw: '3.38', away: '3.48' });
    expect(o.total).toEqual({ source: 'pinnacle', line: '2.5', over: '1.83', under: '2.05' });
    expect(o.asian_handicap).toEqual({ source: 'pinnacle', line: '-0.25', home: '1.97', away: '1.96' });
    expect(s.notes.filter((n) => n.kind === 'fallback_source').map((n) => [n.market, n.source])).toEqual([
      ['1x2', 'average'],
      ['total', 'pinnacle'],
      ['asian_handicap', 'pinnacle'],
    ]);
  });

  it('treats a 0.0 placeholder as no price and notes it', () => {
    const s = one({ 'B365C>2.5': '0.0', 'B365C<2.5': '0.0' });
    expect(s.matches[0]!.odds.closing.total).toBeUndefined();
    expect(s.notes.filter((n) => n.kind === 'placeholder_odds').map((n) => n.column)).toEqual([
      'B365C>2.5',
      'B365C<2.5',
    ]);
    expect(s.notes.some((n) => n.kind === 'no_odds' && n.market === 'total' && n.phase === 'closing')).toBe(
      true,
    );
  });

  it('skips a market without any opening or closing odds, and records it', () => {
    const s = one({
      'B365>2.5': '',
      'P>2.5': '',
      'Avg>2.5': '',
      'B365C>2.5': '',
      AHh: '',
      AHCh: '',
    });
    const m = s.matches[0]!;
    expect(m.skippedMarkets).toEqual(['total', 'asian_handicap']);
    expect(m.odds.opening.total).toBeUndefined();
    expect(m.odds.opening.asian_handicap).toBeUndefined();
    expect(s.notes.filter((n) => n.kind === 'market_skipped').map((n) => [n.line, n.market])).toEqual([
      [2, 'total'],
      [2, 'asian_handicap'],
    ]);
  });

  it('defaults a missing Time to 15:00 UK time, and reads dd/mm/yy dates', () => {
    const cols = SAMPLE_COLUMNS.filter((c) => c !== 'Time');
    const s = one({ Date: '30/12/23' }, cols);
    expect(s.matches[0]).toMatchObject({ date: '2023-12-30', localTime: '15:00', timeDefaulted: true });
    expect(s.matches[0]!.kickOff).toBe('2023-12-30T15:00:00.000Z');
    expect(s.notes.map((n) => n.kind)).toContain('time_defaulted');
    expect(one({ Time: '' }).matches[0]!.timeDefaulted).toBe(true);
  });

  it('leaves half-time out when the file has no HTHG/HTAG', () => {
    const s = one(
      {},
      SAMPLE_COLUMNS.filter((c) => c !== 'HTHG' && c !== 'HTAG'),
    );
    expect(s.matches[0]!.halfTime).toBeUndefined();
  });

  it('uses the file name for the league when there is no Div', () => {
    const s = parseFootballData(csvOf([SAMPLE_ROW], SAMPLE_COLUMNS.slice(1)), { file: 'SP1_2324.csv' });
    expect(s.matches[0]!.league).toBe('SP1');
  });

  it('reports every malformed row with file, line and column, and throws when strict', () => {
    const rows = [
      { ...SAMPLE_ROW },
      { ...SAMPLE_ROW, HomeTeam: 'Spurs', Date: '31/02/2024' },
      { ...SAMPLE_ROW, HomeTeam: 'Luton', FTHG: 'x', B365D: '3,4' },
      { ...SAMPLE_ROW, HomeTeam: 'Fulham', AHh: '-0.3' },
      { ...SAMPLE_ROW, HomeTeam: 'Wolves', HTHG: '3' },
      { ...SAMPLE_ROW, HomeTeam: 'Chelsea' },
      { ...SAMPLE_ROW, Time: '25:00', HomeTeam: 'Everton' },
      { ...SAMPLE_ROW },
    ];
    const text = csvOf(rows).replace('3,4', '"3,4"');
    let err: unknown;
    try {
      parseFootballData(text, { file: 'E0_bad.csv' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FootballDataError);
    const problems = (err as FootballDataError).problems.map((p) => [p.line, p.column ?? null]);
    expect(problems).toEqual([
      [3, 'Date'],
      [4, 'FTHG'],
      [4, 'B365D'],
      [5, 'AHh'],
      [6, 'HTHG'],
      [7, 'AwayTeam'],
      [8, 'Time'],
      [9, null], // duplicate of line 2
    ]);
    expect((err as Error).message).toContain('E0_bad.csv:3 (Date)');

    const lenient = parseFootballData(text, { file: 'E0_bad.csv', strict: false });
    expect(lenient.matches.map((m) => m.line)).toEqual([2]);
    expect(lenient.problems).toHaveLength(8);
    expect(lenient.problems[7]!.message).toMatch(/duplicate of the match on line 2/);
  });

  it('names a missing required column on line 1', () => {
    expect(() => parseFootballData('Div,Date,HomeTeam,AwayTeam,FTHG\nE0,01/01/2024,A,B,1\n')).toThrow(
      /input\.csv:1 \(FTAG\): required column is missing/,
    );
  });

  it('reports a row with a wrong number of cells', () => {
    const text = `${csvOf([SAMPLE_ROW])}E0,13/08/2023,15:00,Spurs,Luton,1,0\r\n`;
    const s = parseFootballData(text, { strict: false });
    expect(s.problems[0]).toMatchObject({ line: 3 });
    expect(s.problems[0]!.message).toMatch(/cells/);
  });

  it('compares lines as numbers', () => {
    expect(sameLine('0.0', '0')).toBe(true);
    expect(sameLine('-1.0', '-1')).toBe(true);
    expect(sameLine('-0.25', '-0.5')).toBe(false);
  });
});
