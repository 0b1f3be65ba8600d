/**
 * A season as a script: the ordered list of trading commands (exact bodies of the `/trading/...` API, typed by
 * `@bookie/contracts`) that replays every match in simulated time, from opening odds to the ended fixture
 * (docs/adr/0010-replay-importer.md "Timeline").
 *
 * Per match, relative to kick-off K (defaults of {@link DEFAULT_TIMELINE}):
 *
 * | step | at | command |
 * |---|---|---|
 * | `open` | K − 48 h | create the sport event with the opening odds (fixture 0, markets 0) |
 * | `closing_odds` | K − 5 min | closing odd values (only the values that changed) |
 * | `bet_stop` | K | bet stop on: no in-play prices exist, so no in-play bets |
 * | `kick_off` | K | fixture status 1 (live) |
 * | `half_time` | K + 47 min | scores: total and period 1 = half-time goals |
 * | `full_time` | K + 112 min | scores: total = full-time goals, period 2 = second-half goals |
 * | `results` | K + 113 min | every odd's status from the score and every market status 3 (resulted), one entry |
 * | `ended` | K + 114 min | fixture status 3 (ended) |
 *
 * @packageDocumentation
 */
import type {
  BetStopBody,
  CreateSportEventBody,
  Market,
  PatchMarketsBody,
  Score,
  UpdateFixtureBody,
  UpdateScoresBody,
} from '@bookie/contracts';
import { FIXTURE_STATUS, MARKET_STATUS } from '@bookie/core';
import type { GoalScore, MatchRow, ParsedSeason } from './football-data.js';
import {
  closingOddsPatch,
  competitorIdOf,
  fixtureOf,
  openingMarkets,
  SCORE_TYPE,
  sportEventIdOf,
  toMarketInput,
} from './markets.js';
import { marketResults, type ResultStatus } from './results.js';

/** A trading API call: method, path under the server's base URL, and the exact body the route validates. */
export type TradingCommand =
  | { kind: 'create_sport_event'; method: 'POST'; path: '/trading/sport-events'; body: CreateSportEventBody }
  | { kind: 'patch_markets'; method: 'PATCH'; path: string; body: PatchMarketsBody }
  | { kind: 'update_fixture'; method: 'PATCH'; path: string; body: UpdateFixtureBody }
  | { kind: 'set_bet_stop'; method: 'PUT'; path: string; body: BetStopBody }
  | { kind: 'update_scores'; method: 'PATCH'; path: string; body: UpdateScoresBody };

/** The steps of one match, in order. */
export const STEP_NAMES = [
  'open',
  'closing_odds',
  'bet_stop',
  'kick_off',
  'half_time',
  'full_time',
  'results',
  'ended',
] as const;
/** A step of a match's timeline. */
export type StepName = (typeof STEP_NAMES)[number];

/** One command of a script, at its simulated time. */
export interface ScriptStep {
  /** Simulated time, unix ms. */
  at: number;
  /** Index of the match in {@link SeasonScript.matches}. */
  match: number;
  sportEventId: string;
  step: StepName;
  command: TradingCommand;
}

/** A match of a script and what the replay must end with. */
export interface ScriptMatch {
  sportEventId: string;
  row: MatchRow;
  homeId: string;
  awayId: string;
  /** The markets offered, as they must read once the match has ended: closing values, statuses resulted. */
  finalMarkets: Market[];
}

/** A season (or several) as commands in time order. */
export interface SeasonScript {
  matches: ScriptMatch[];
  /** Sorted by `at`, then match, then step order. */
  steps: ScriptStep[];
}

/** Offsets of the steps from kick-off, ms (negative: before). */
export interface Timeline {
  open: number;
  closingOdds: number;
  kickOff: number;
  halfTime: number;
  fullTime: number;
  results: number;
  ended: number;
}

const MIN = 60_000;

/** The default timeline (see the module comment). */
export const DEFAULT_TIMELINE: Readonly<Timeline> = {
  open: -48 * 60 * MIN,
  closingOdds: -5 * MIN,
  kickOff: 0,
  halfTime: 47 * MIN,
  fullTime: 112 * MIN,
  results: 113 * MIN,
  ended: 114 * MIN,
};

/**
 * Builds the script of one or more seasons.
 *
 * @param seasons - parsed files ({@link ParsedSeason}) or match rows.
 * @param timeline - step offsets (must be increasing, as listed in {@link Timeline}).
 * @throws RangeError when two rows give the same sport event id, or the timeline is not increasing.
 */
export function buildSeasonScript(
  seasons: readonly ParsedSeason[] | readonly MatchRow[],
  timeline: Partial<Timeline> = {},
): SeasonScript {
  const t: Timeline = { ...DEFAULT_TIMELINE, ...timeline };
  const order = [t.open, t.closingOdds, t.kickOff, t.halfTime, t.fullTime, t.results, t.ended];
  if (order.some((v, i) => i > 0 && v <= order[i - 1]!)) {
    throw new RangeError('buildSeasonScript: timeline offsets must increase from open to ended');
  }
  const rows: MatchRow[] = (seasons as readonly (ParsedSeason | MatchRow)[]).flatMap((s) =>
    'matches' in s ? s.matches : [s],
  );
  const matches: ScriptMatch[] = [];
  const steps: ScriptStep[] = [];
  const ids = new Map<string, MatchRow>();
  rows.forEach((row, index) => {
    const id = sportEventIdOf(row);
    const dup = ids.get(id);
    if (dup) {
      throw new RangeError(
        `buildSeasonScript: ${row.file}:${row.line} is the same match as ${dup.file}:${dup.line} (${row.home} v ${row.away} on ${row.date})`,
      );
    }
    ids.set(id, row);
    const m = matchSteps(row, index, t);
    matches.push(m.match);
    steps.push(...m.steps);
  });
  const rank = new Map<StepName, number>(STEP_NAMES.map((s, i) => [s, i]));
  steps.sort((a, b) => a.at - b.at || a.match - b.match || rank.get(a.step)! - rank.get(b.step)!);
  return { matches, steps };
}

function scores(
  homeId: string,
  awayId: string,
  entries: [string, number, number, GoalScore][],
): UpdateScoresBody {
  const side = (pick: 'home' | 'away'): Record<string, Score> =>
    Object.fromEntries(
      entries.map(([id, type, number, g]) => [id, { id, type, number, points: String(g[pick]) }]),
    );
  return { competitors: { [homeId]: side('home'), [awayId]: side('away') } };
}

function matchSteps(row: MatchRow, index: number, t: Timeline): { match: ScriptMatch; steps: ScriptStep[] } {
  const id = sportEventIdOf(row);
  const base = `/trading/sport-events/${id}`;
  const homeId = competitorIdOf(row.league, row.home);
  const awayId = competitorIdOf(row.league, row.away);
  const k = row.kickOffMs;
  const steps: ScriptStep[] = [];
  const add = (step: StepName, offset: number, command: TradingCommand) =>
    steps.push({ at: k + offset, match: index, sportEventId: id, step, command });

  const markets = openingMarkets(row);
  add('open', t.open, {
    kind: 'create_sport_event',
    method: 'POST',
    path: '/trading/sport-events',
    body: {
      id,
      meta: {
        source: 'football-data.co.uk',
        league: row.league,
        season: row.season,
        file: row.file,
        line: row.line,
      },
      fixture: fixtureOf(row),
      markets: markets.map(toMarketInput),
      bet_stop: false,
      sources: [{ id: `${row.file}:${row.line}`, type: 'football-data.co.uk' }],
    },
  });

  const closing = closingOddsPatch(row);
  if (closing.length > 0) {
    add('closing_odds', t.closingOdds, {
      kind: 'patch_markets',
      method: 'PATCH',
      path: `${base}/markets`,
      body: { markets: closing },
    });
  }
  add('bet_stop', t.kickOff, {
    kind: 'set_bet_stop',
    method: 'PUT',
    path: `${base}/bet-stop`,
    body: { bet_stop: true },
  });
  add('kick_off', t.kickOff, {
    kind: 'update_fixture',
    method: 'PATCH',
    path: `${base}/fixture`,
    body: { status: FIXTURE_STATUS.LIVE },
  });
  const ht = row.halfTime;
  if (ht) {
    add('half_time', t.halfTime, {
      kind: 'update_scores',
      method: 'PATCH',
      path: `${base}/scores`,
      body: scores(homeId, awayId, [
        ['total', SCORE_TYPE.TOTAL, 0, ht],
        ['period:1', SCORE_TYPE.PERIOD, 1, ht],
      ]),
    });
  }
  const ft = row.fullTime;
  add('full_time', t.fullTime, {
    kind: 'update_scores',
    method: 'PATCH',
    path: `${base}/scores`,
    body: scores(homeId, awayId, [
      ['total', SCORE_TYPE.TOTAL, 0, ft],
      ...(ht
        ? [
            ['period:2', SCORE_TYPE.PERIOD, 2, { home: ft.home - ht.home, away: ft.away - ht.away }] as [
              string,
              number,
              number,
              GoalScore,
            ],
          ]
        : []),
    ]),
  });

  // the markets as they must end: closing values applied, each odd resulted, each market resulted
  const closingById = new Map(closing.map((m) => [m.id, m]));
  const finalMarkets: Market[] = markets.map((m) => {
    const r = marketResults(m, ft);
    const odds: Market['odds'] = {};
    for (const [oid, o] of Object.entries(m.odds)) {
      const value = closingById.get(m.id)?.odds?.find((x) => x.id === oid)?.value ?? o.value;
      odds[oid] = { ...o, value, status: r[oid] as ResultStatus };
    }
    return { ...m, odds, status: MARKET_STATUS.RESULTED };
  });
  if (finalMarkets.length > 0) {
    add('results', t.results, {
      kind: 'patch_markets',
      method: 'PATCH',
      path: `${base}/markets`,
      body: {
        markets: finalMarkets.map((m) => ({
          id: m.id,
          status: MARKET_STATUS.RESULTED,
          odds: Object.values(m.odds).map((o) => ({ id: o.id, status: o.status })),
        })),
      },
    });
  }
  add('ended', t.ended, {
    kind: 'update_fixture',
    method: 'PATCH',
    path: `${base}/fixture`,
    body: { status: FIXTURE_STATUS.ENDED },
  });
  return { match: { sportEventId: id, row, homeId, awayId, finalMarkets }, steps };
}
