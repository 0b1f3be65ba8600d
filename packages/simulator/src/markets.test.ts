import { Market } from '@bookie/contracts';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { parseFootballData, readFootballData } from './football-data.js';
import { FOOTBALL_DATA_NAMESPACE, URL_NAMESPACE, uuidV5 } from './ids.js';
import {
  closingOddsPatch,
  competitorIdOf,
  feedOdd,
  fixtureOf,
  marketId,
  openingMarkets,
  sportEventIdOf,
  toMarketInput,
  tournamentOf,
} from './markets.js';
import { csvOf, dataFile, SAMPLE_ROW } from './testing.js';

const marketCheck = TypeCompiler.Compile(Market);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const row = (over: Record<string, string> = {}) =>
  parseFootballData(csvOf([{ ...SAMPLE_ROW, ...over }]), { file: 'E0_2324.csv' }).matches[0]!;

describe('ids', () => {
  it('computes RFC 9562 UUID v5 (known vector) and the simulator namespace', () => {
    expect(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
    expect(uuidV5('https://www.football-data.co.uk/', URL_NAMESPACE)).toBe(FOOTBALL_DATA_NAMESPACE);
    expect(() => uuidV5('x', 'nope')).toThrow(TypeError);
  });

  it('derives sport event ids from league, date and teams, the same on every run', () => {
    const a = sportEventIdOf({ league: 'E0', date: '2023-08-11', home: 'Burnley', away: 'Man City' });
    expect(a).toMatch(UUID);
    // pinned: also what Python's uuid.uuid5(uuid5(NAMESPACE_URL, "https://www.football-data.co.uk/"), name) gives
    expect(a).toBe('b1295d2f-5df4-56e1-8572-75af98f29efa');
    expect(sportEventIdOf({ league: 'E0', date: '2023-08-11', home: 'Burnley', away: 'Man City' })).toBe(a);
    expect(sportEventIdOf({ league: 'E0', date: '2023-08-11', home: 'Man City', away: 'Burnley' })).not.toBe(
      a,
    );
    expect(sportEventIdOf({ league: 'E0', date: '2023-08-12', home: 'Burnley', away: 'Man City' })).not.toBe(
      a,
    );
    expect(sportEventIdOf({ league: 'E1', date: '2023-08-11', home: 'Burnley', away: 'Man City' })).not.toBe(
      a,
    );
  });

  it('keeps a team id across leagues of one country, not across countries', () => {
    expect(competitorIdOf('E0', 'Burnley')).toBe(competitorIdOf('E1', 'Burnley'));
    expect(competitorIdOf('E0', 'Burnley')).toMatch(UUID);
    expect(competitorIdOf('SP1', 'Sevilla')).not.toBe(competitorIdOf('E0', 'Sevilla'));
  });

  it('gives each season its own tournament, one master id per league', () => {
    const a = tournamentOf({ league: 'E0', season: '2023/24' });
    const b = tournamentOf({ league: 'E0', season: '2022/23' });
    expect(a).toMatchObject({ name: 'Premier League 2023/24', country_code: 'GB' });
    expect(a.id).not.toBe(b.id);
    expect(a.master_id).toBe(b.master_id);
    expect(tournamentOf({ league: 'XX9', season: '2023/24' })).toMatchObject({ name: 'XX9 2023/24' });
  });
});

describe('markets', () => {
  it('writes CSV odds as 12-decimal feed values, exactly', () => {
    expect(feedOdd('8.0')).toBe('8.000000000000');
    expect(feedOdd('1.33')).toBe('1.330000000000');
    expect(feedOdd('101')).toBe('101.000000000000');
    expect(() => feedOdd('1e3')).toThrow(/exponent/);
  });

  it('encodes type and specifiers in market ids', () => {
    expect(marketId('1x2')).toBe('1');
    expect(marketId('total', '2.5')).toBe('18:total=2.5');
    expect(marketId('asian_handicap', '-0.25')).toBe('16:hcp=-0.25');
    expect(() => marketId('total')).toThrow(TypeError);
  });

  it('builds the three markets of a row in the spec-02 snapshot shape', () => {
    const ms = openingMarkets(row());
    expect(ms.map((m) => m.id)).toEqual(['1', '18:total=2.5', '16:hcp=-0.25']);
    for (const m of ms) expect(marketCheck.Errors(m).First()).toBeUndefined();
    const [x12, total, ah] = ms;
    expect(x12).toMatchObject({ type_id: 1, status: 0, specifiers: {} });
    expect(Object.values(x12!.odds).map((o) => [o.id, o.value, o.status, o.is_active])).toEqual([
      ['home', '2.100000000000', 0, true],
      ['draw', '3.400000000000', 0, true],
      ['away', '3.500000000000', 0, true],
    ]);
    expect(total).toMatchObject({ type_id: 18, specifiers: { total: '2.5' } });
    expect(Object.keys(total!.odds)).toEqual(['over', 'under']);
    expect(ah).toMatchObject({ type_id: 16, specifiers: { hcp: '-0.25' } });
    expect(ah!.odds.away!.value).toBe('1.950000000000');
    expect(toMarketInput(ah!).odds.map((o) => o.id)).toEqual(['home', 'away']);
  });

  it('opens a market from its closing odds when the opening ones are missing', () => {
    const r = row({ B365H: '', PSH: '', AvgH: '' });
    expect(openingMarkets(r)[0]!.odds.home!.value).toBe('2.000000000000');
  });

  it('patches only changed closing values, and not an Asian market whose line moved', () => {
    expect(closingOddsPatch(row())).toEqual([
      {
        id: '1',
        odds: [
          { id: 'home', value: '2.000000000000' },
          { id: 'draw', value: '3.500000000000' },
          { id: 'away', value: '3.750000000000' },
        ],
      },
      {
        id: '18:total=2.5',
        odds: [
          { id: 'over', value: '1.750000000000' },
          { id: 'under', value: '2.050000000000' },
        ],
      },
      {
        id: '16:hcp=-0.25',
        odds: [
          { id: 'home', value: '1.900000000000' },
          { id: 'away', value: '2.000000000000' },
        ],
      },
    ]);
    const moved = closingOddsPatch(row({ AHCh: '-0.5' }));
    expect(moved.map((m) => m.id)).toEqual(['1', '18:total=2.5']);
    // the same line written differently still applies
    expect(closingOddsPatch(row({ AHh: '0.0', AHCh: '0' })).map((m) => m.id)).toContain('16:hcp=0.0');
    expect(
      closingOddsPatch(row({ B365CH: '2.1', B365CD: '3.4', B365CA: '3.5' })).map((m) => m.id),
    ).not.toContain('1');
  });

  it('builds a fixture with deterministic competitors, home first', async () => {
    const s = await readFootballData(dataFile('E0_2324.csv'));
    const f = fixtureOf(s.matches[0]!);
    expect(f).toMatchObject({
      status: 0,
      sport_id: 'football',
      start_time: '2023-08-11T19:00:00.000Z',
      tournament: { name: 'Premier League 2023/24' },
    });
    const cs = Object.values(f.competitors);
    expect(cs.map((c) => [c.name, c.home_away, c.template_position, c.type])).toEqual([
      ['Burnley', 1, 1, 2],
      ['Man City', 2, 2, 2],
    ]);
    expect(cs[0]!.id).toBe(competitorIdOf('E0', 'Burnley'));
  });
});
