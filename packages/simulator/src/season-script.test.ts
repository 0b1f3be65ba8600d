import {
  BetStopBody,
  CreateSportEventBody,
  Market,
  PatchMarketsBody,
  UpdateFixtureBody,
  UpdateScoresBody,
} from '@bookie/contracts';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ParsedSeason, parseFootballData, readFootballData } from './football-data.js';
import { marketResults } from './results.js';
import {
  buildSeasonScript,
  DEFAULT_TIMELINE,
  type SeasonScript,
  STEP_NAMES,
  type TradingCommand,
} from './season-script.js';
import { csvOf, dataFile, SAMPLE_ROW } from './testing.js';

/** The schema each route validates its body with (trading.routes.ts). */
const SCHEMAS: Record<TradingCommand['kind'], TSchema> = {
  create_sport_event: CreateSportEventBody,
  patch_markets: PatchMarketsBody,
  update_fixture: UpdateFixtureBody,
  set_bet_stop: BetStopBody,
  update_scores: UpdateScoresBody,
};
const checks = Object.fromEntries(Object.entries(SCHEMAS).map(([k, s]) => [k, TypeCompiler.Compile(s)]));
const marketCheck = TypeCompiler.Compile(Market);

const MIN = 60_000;
let seasons: ParsedSeason[];
let script: SeasonScript;

beforeAll(async () => {
  seasons = [
    await readFootballData(dataFile('E0_2324.csv')),
    await readFootballData(dataFile('SP1_2324.csv')),
  ];
  script = buildSeasonScript(seasons);
});

describe('buildSeasonScript', () => {
  it('makes bodies the trading API accepts, for every command of two real seasons', () => {
    expect(script.matches).toHaveLength(760);
    for (const step of script.steps) {
      const check = checks[step.command.kind]!;
      const first = check.Errors(step.command.body).First();
      expect(first, `${step.step} of ${step.sportEventId}: ${first?.path} ${first?.message}`).toBeUndefined();
    }
    for (const m of script.matches)
      for (const market of m.finalMarkets) expect(marketCheck.Check(market)).toBe(true);
  });

  it('routes each command to its endpoint', () => {
    const paths = new Set(
      script.steps.map((s) => `${s.command.method} ${s.command.path.replace(s.sportEventId, ':id')}`),
    );
    expect([...paths].sort()).toEqual([
      'PATCH /trading/sport-events/:id/fixture',
      'PATCH /trading/sport-events/:id/markets',
      'PATCH /trading/sport-events/:id/scores',
      'POST /trading/sport-events',
      'PUT /trading/sport-events/:id/bet-stop',
    ]);
  });

  it('orders steps by time, and each match from opening odds to ended', () => {
    for (let i = 1; i < script.steps.length; i++) {
      expect(script.steps[i]!.at).toBeGreaterThanOrEqual(script.steps[i - 1]!.at);
    }
    const byMatch = new Map<number, string[]>();
    for (const s of script.steps) byMatch.set(s.match, [...(byMatch.get(s.match) ?? []), s.step]);
    for (const steps of byMatch.values()) {
      expect(steps).toEqual(STEP_NAMES.filter((n) => steps.includes(n)));
      expect(steps[0]).toBe('open');
      expect(steps.at(-1)).toBe('ended');
      expect(steps).toEqual(
        expect.arrayContaining(['bet_stop', 'kick_off', 'half_time', 'full_time', 'results']),
      );
    }
  });

  it('follows the documented timeline for a match', () => {
    const m = script.matches[0]!;
    const k = m.row.kickOffMs;
    const steps = script.steps.filter((s) => s.match === 0);
    expect(steps.map((s) => [s.step, (s.at - k) / MIN])).toEqual([
      ['open', -48 * 60],
      ['closing_odds', -5],
      ['bet_stop', 0],
      ['kick_off', 0],
      ['half_time', 47],
      ['full_time', 112],
      ['results', 113],
      ['ended', 114],
    ]);
    const [open, closing, betStop, kickOff, ht, ft, results, ended] = steps.map((s) => s.command);
    const create = open!.body as CreateSportEventBody;
    expect(create.id).toBe(m.sportEventId);
    expect(create.fixture).toMatchObject({ status: 0, start_time: '2023-08-11T19:00:00.000Z' });
    expect(create.markets!.map((x) => [x.id, x.status])).toEqual([
      ['1', 0],
      ['18:total=2.5', 0],
      ['16:hcp=1.5', 0],
    ]);
    expect(closing!.body).toEqual({
      markets: [
        {
          id: '1',
          odds: [
            { id: 'home', value: '9.000000000000' },
            { id: 'draw', value: '5.250000000000' },
          ],
        },
        {
          id: '16:hcp=1.5',
          odds: [
            { id: 'home', value: '1.950000000000' },
            { id: 'away', value: '1.980000000000' },
          ],
        },
      ],
    });
    expect(betStop!.body).toEqual({ bet_stop: true });
    expect(kickOff!.body).toEqual({ status: 1 });
    // Burnley 0–3 Man City, 0–2 at half time
    expect(ht!.body).toEqual({
      competitors: {
        [m.homeId]: {
          total: { id: 'total', type: 1, number: 0, points: '0' },
          'period:1': { id: 'period:1', type: 2, number: 1, points: '0' },
        },
        [m.awayId]: {
          total: { id: 'total', type: 1, number: 0, points: '2' },
          'period:1': { id: 'period:1', type: 2, number: 1, points: '2' },
        },
      },
    });
    expect((ft!.body as UpdateScoresBody).competitors[m.awayId]).toEqual({
      total: { id: 'total', type: 1, number: 0, points: '3' },
      'period:2': { id: 'period:2', type: 2, number: 2, points: '1' },
    });
    expect(results!.body).toEqual({
      markets: [
        {
          id: '1',
          status: 3,
          odds: [
            { id: 'home', status: 2 },
            { id: 'draw', status: 2 },
            { id: 'away', status: 1 },
          ],
        },
        {
          id: '18:total=2.5',
          status: 3,
          odds: [
            { id: 'over', status: 1 },
            { id: 'under', status: 2 },
          ],
        },
        {
          id: '16:hcp=1.5',
          status: 3,
          odds: [
            { id: 'home', status: 2 },
            { id: 'away', status: 1 },
          ],
        },
      ],
    });
    expect(ended!.body).toEqual({ status: 3 });
  });

  it('ends every market resulted from the real score, with every odd status 1–5 seen in a season', () => {
    const seen = new Set<number>();
    for (const m of script.matches.slice(0, 380)) {
      expect(m.finalMarkets).toHaveLength(3);
      for (const market of m.finalMarkets) {
        expect(market.status).toBe(3);
        const r = marketResults(market, m.row.fullTime);
        for (const o of Object.values(market.odds)) {
          expect(o.status).toBe(r[o.id]);
          seen.add(o.status);
        }
      }
    }
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('is deterministic', () => {
    expect(buildSeasonScript(seasons)).toEqual(script);
  });

  it('leaves out half time without HT goals, closing odds when nothing moved, results without markets', () => {
    const text = csvOf([
      {
        ...SAMPLE_ROW,
        HTHG: '',
        HTAG: '',
        B365CH: '2.1',
        B365CD: '3.4',
        B365CA: '3.5',
        'B365C>2.5': '1.8',
        'B365C<2.5': '2.0',
        AHCh: '-0.5',
      },
      {
        ...SAMPLE_ROW,
        HomeTeam: 'Spurs',
        ...Object.fromEntries(
          Object.keys(SAMPLE_ROW)
            .filter((c) => /^(B365|PS|Avg|P[<>A])|AH/.test(c))
            .map((c) => [c, '']),
        ),
      },
    ]);
    const s = buildSeasonScript([parseFootballData(text, { file: 'E0_x.csv' })]);
    const steps = (match: number) => s.steps.filter((x) => x.match === match).map((x) => x.step);
    expect(steps(0)).toEqual(['open', 'bet_stop', 'kick_off', 'full_time', 'results', 'ended']);
    expect(steps(1)).toEqual(['open', 'bet_stop', 'kick_off', 'half_time', 'full_time', 'ended']);
    expect((s.steps.find((x) => x.match === 1)!.command.body as CreateSportEventBody).markets).toEqual([]);
    const ft = s.steps.find((x) => x.match === 0 && x.step === 'full_time')!.command.body as UpdateScoresBody;
    expect(Object.values(ft.competitors).map((c) => Object.keys(c))).toEqual([['total'], ['total']]);
  });

  it('refuses the same match twice and a timeline that goes backwards', () => {
    expect(() => buildSeasonScript([seasons[0]!, seasons[0]!])).toThrow(/same match as E0_2324.csv:2/);
    expect(() => buildSeasonScript(seasons, { halfTime: DEFAULT_TIMELINE.fullTime })).toThrow(/increase/);
  });
});
