/**
 * The in-play phase of a replayed match, as a plan (docs/adr/0026-in-play-replay.md): the goals of the real score
 * at minutes drawn from the seed, the match played minute by minute as trading commands (in-play 1X2 and total
 * prices from the {@link calibrateGoalModel Poisson model}, a bet stop at each goal and new prices a minute later),
 * and the live bets and cash-outs of the in-play bettors. Pure: the same seed and match give the same plan;
 * {@link runInPlay} (in-play-runner.ts) sends it.
 *
 * @packageDocumentation
 */
import type { Score as FeedScore, PatchMarketsBody, UpdateScoresBody } from '@bookie/contracts';
import { MARKET_STATUS } from '@bookie/core';
import type { Strategy } from './bettors.js';
import type { GoalScore, MatchRow, OneXTwoQuote, TotalQuote } from './football-data.js';
import { marketId, SCORE_TYPE } from './markets.js';
import { calibrateGoalModel, type GoalModel, type InPlayPrices, inPlayPrices, overround } from './poisson.js';
import { Rng } from './prng.js';
import type { ScriptMatch, TradingCommand } from './season-script.js';

const MIN = 60_000;

/** Length of the half-time break, simulated minutes. */
export const HALF_TIME_BREAK_MIN = 15;

/** A goal: who scored, in which half, at which minute of the match clock (46+ in the second half; 45+2 is 47). */
export interface Goal {
  side: 'home' | 'away';
  half: 1 | 2;
  clock: number;
}

/** Stoppage time of each half, minutes. */
export interface Stoppage {
  first: number;
  second: number;
}

/**
 * The goals of a match at minutes drawn from `rng`: the half-time goals at distinct minutes of the first half
 * (1 … 45 + stoppage), the others in the second (46 … 90 + stoppage), each half's home and away goals in an order
 * drawn from `rng`. Without a half-time score every goal is drawn over both halves. Stoppage: 1–4 minutes in the
 * first half, 2–6 in the second.
 */
export function drawGoals(
  row: Pick<MatchRow, 'halfTime' | 'fullTime'>,
  rng: Rng,
): { goals: Goal[]; stoppage: Stoppage } {
  const stoppage = { first: rng.between(1, 4), second: rng.between(2, 6) };
  const firstClocks = Array.from({ length: 45 + stoppage.first }, (_, i) => i + 1);
  const secondClocks = Array.from({ length: 45 + stoppage.second }, (_, i) => i + 46);
  const sides = (home: number, away: number) =>
    rng.sample([...Array<'home'>(home).fill('home'), ...Array<'away'>(away).fill('away')], home + away);
  const half = (h: 1 | 2, clocks: number[], score: GoalScore): Goal[] => {
    const minutes = rng.sample(clocks, score.home + score.away).sort((a, b) => a - b);
    return sides(score.home, score.away).map((side, i) => ({ side, half: h, clock: minutes[i]! }));
  };
  const ft = row.fullTime;
  if (row.halfTime) {
    const ht = row.halfTime;
    return {
      goals: [
        ...half(1, firstClocks, ht),
        ...half(2, secondClocks, { home: ft.home - ht.home, away: ft.away - ht.away }),
      ],
      stoppage,
    };
  }
  // no half-time score: every goal anywhere in the match
  const all = [
    ...firstClocks.map((c) => ({ half: 1 as const, clock: c })),
    ...secondClocks.map((c) => ({ half: 2 as const, clock: c })),
  ];
  const picks = rng.sample([...all.keys()], ft.home + ft.away).sort((a, b) => a - b);
  return {
    goals: sides(ft.home, ft.away).map((side, i) => ({ side, ...all[picks[i]!]! })),
    stoppage,
  };
}

/** A minute of play. */
export interface PlayMinute {
  half: 1 | 2;
  /** The match clock, 1 … 45 + stoppage, then 46 … 90 + stoppage. */
  clock: number;
  /** As a commentator says it: `"45+2'"`. */
  label: string;
  /** Share of the 90 minutes still to play after this minute (0 in stoppage time at the end). */
  remaining: number;
  /** Simulated time of the minute's end, unix ms. */
  at: number;
}

/** The minutes of a match kicking off at `kickOffMs`, in order (the half-time break between them). */
export function playMinutes(kickOffMs: number, stoppage: Stoppage): PlayMinute[] {
  const out: PlayMinute[] = [];
  for (let c = 1; c <= 45 + stoppage.first; c++) {
    out.push({
      half: 1,
      clock: c,
      label: c > 45 ? `45+${c - 45}'` : `${c}'`,
      remaining: (90 - Math.min(c, 45)) / 90,
      at: kickOffMs + c * MIN,
    });
  }
  const secondStart = kickOffMs + (45 + stoppage.first + HALF_TIME_BREAK_MIN) * MIN;
  for (let c = 46; c <= 90 + stoppage.second; c++) {
    out.push({
      half: 2,
      clock: c,
      label: c > 90 ? `90+${c - 90}'` : `${c}'`,
      remaining: (90 - Math.min(c, 90)) / 90,
      at: secondStart + (c - 45) * MIN,
    });
  }
  return out;
}

/** What happens to the market between a live bet's request and its decision (the bet delay). */
export type DuringDelay = 'none' | 'odds' | 'goal';

/** A cash-out a live bettor means to make. */
export interface PlannedCashOut {
  /** Index into {@link InPlayPlan.minutes}: when. */
  minute: number;
  kind: 'full' | 'partial';
  /** Through the player's frame API or the partner's REST. */
  via: 'frame' | 'partner';
}

/** A live bet of the plan: a single on the match's 1X2 or total, the outcome chosen from the prices shown. */
export interface LiveBetPlan {
  /** `client_key`. */
  key: string;
  /** Position among the match's live bets. */
  index: number;
  /** Index into the in-play population. */
  player: number;
  /** Index into {@link InPlayPlan.minutes}: the bet is sent after this minute's commands. */
  minute: number;
  market: '1x2' | 'total';
  /** EUR, decimal string. */
  stake: string;
  strategy: Strategy;
  /** `odds` and `goal`: the next minute's commands are sent while the bet waits out its delay. */
  during: DuringDelay;
  cashOut?: PlannedCashOut;
}

/** A minute's trading commands, in order. */
export interface MinuteCommands {
  /** Index into {@link InPlayPlan.minutes}; -1 is kick-off (the in-play markets open). */
  minute: number;
  commands: TradingCommand[];
  /** A goal in this minute (the score after it). */
  goal?: { side: 'home' | 'away'; score: GoalScore };
}

/** A match's in-play phase. */
export interface InPlayPlan {
  match: number;
  sportEventId: string;
  model: GoalModel;
  /** Pre-match overround of each priced market (the book's margin, kept in play). */
  margins: { '1x2': number; total: number };
  goals: Goal[];
  stoppage: Stoppage;
  minutes: PlayMinute[];
  /** Kick-off's commands first, then one entry per minute (possibly with no command), then the final whistle's. */
  steps: MinuteCommands[];
  bets: LiveBetPlan[];
}

/** Options of {@link planInPlay}. */
export interface InPlayPlanOptions {
  seed: string;
  /** Live bets per match (default {@link LIVE_BETS_PER_MATCH}). */
  liveBets?: number;
  /** Size of the in-play population. */
  players: number;
  /**
   * Minutes between two price updates of a quiet spell (default 1: every minute); with N, the prices go out at the
   * minutes whose clock is a multiple of N. A goal's bet stop and the new prices a minute later are sent whatever N.
   */
  priceEveryMin?: number;
}

/** Live bets per match when none is given. */
export const LIVE_BETS_PER_MATCH = 6;

/** The pre-match quote the in-play model calibrates to: the closing one when there is one, else the opening one. */
function lastQuote<K extends '1x2' | 'total'>(row: MatchRow, kind: K) {
  return (row.odds.closing[kind] ?? row.odds.opening[kind]) as
    | (K extends '1x2' ? OneXTwoQuote : TotalQuote)
    | undefined;
}

function scoresBody(m: ScriptMatch, entries: [string, number, number, GoalScore][]): UpdateScoresBody {
  const side = (pick: 'home' | 'away'): Record<string, FeedScore> =>
    Object.fromEntries(
      entries.map(([id, type, number, g]) => [id, { id, type, number, points: String(g[pick]) }]),
    );
  return { competitors: { [m.homeId]: side('home'), [m.awayId]: side('away') } };
}

/** A log-uniform stake in whole euros. */
function stakeOf(rng: Rng, lo: number, hi: number): string {
  return `${Math.round(Math.exp(Math.log(lo) + rng.next() * (Math.log(hi) - Math.log(lo))))}.00`;
}

/**
 * The in-play plan of a match, or undefined when it has no 1X2 quote to calibrate to. The 1X2 and total markets
 * trade in play; the Asian handicap is suspended at kick-off (the model does not price it).
 */
export function planInPlay(
  m: ScriptMatch,
  matchIndex: number,
  options: InPlayPlanOptions,
): InPlayPlan | undefined {
  const row = m.row;
  const x12 = lastQuote(row, '1x2');
  if (!x12) return undefined;
  const total = lastQuote(row, 'total');
  const offered = new Set(m.finalMarkets.map((x) => x.id));
  const totalId = total ? marketId('total', total.line) : undefined;
  const hasTotal = totalId !== undefined && offered.has(totalId);
  const model = calibrateGoalModel(x12, hasTotal ? total : undefined);
  const margins = {
    '1x2': overround([x12.home, x12.draw, x12.away]),
    total: total ? overround([total.over, total.under]) : 1,
  };
  const rng = new Rng(`${options.seed}/in-play/${matchIndex}`);
  const { goals, stoppage } = drawGoals(row, rng.fork('goals'));
  const minutes = playMinutes(row.kickOffMs, stoppage);
  const base = `/trading/sport-events/${m.sportEventId}`;
  const line = hasTotal ? Number(total!.line) : 2.5;

  const patch = (markets: PatchMarketsBody['markets']): TradingCommand => ({
    kind: 'patch_markets',
    method: 'PATCH',
    path: `${base}/markets`,
    body: { markets },
  });
  const betStop = (on: boolean): TradingCommand => ({
    kind: 'set_bet_stop',
    method: 'PUT',
    path: `${base}/bet-stop`,
    body: { bet_stop: on },
  });
  let published: InPlayPrices | undefined;
  let totalOpen = hasTotal;
  /** The prices now as a patch: every value, or (changedOnly) the values that moved since the last one. */
  const pricesPatch = (remaining: number, score: GoalScore, changedOnly: boolean) => {
    const p = inPlayPrices(model, remaining, score, margins, line);
    const out: PatchMarketsBody['markets'] = [];
    const odds1 = (['home', 'draw', 'away'] as const)
      .filter((o) => !changedOnly || published?.['1x2'][o] !== p['1x2'][o])
      .map((o) => ({ id: o, value: p['1x2'][o] }));
    if (odds1.length > 0) out.push({ id: marketId('1x2'), odds: odds1 });
    if (totalOpen && score.home + score.away > line) {
      // the over is won: the market stops trading until it is resulted
      totalOpen = false;
      out.push({ id: totalId!, status: MARKET_STATUS.SUSPENDED });
    } else if (totalOpen) {
      const oddsT = (['over', 'under'] as const)
        .filter((o) => !changedOnly || published?.total[o] !== p.total[o])
        .map((o) => ({ id: o, value: p.total[o] }));
      if (oddsT.length > 0) out.push({ id: totalId!, odds: oddsT });
    }
    published = p;
    return out;
  };

  const steps: MinuteCommands[] = [];
  const score: GoalScore = { home: 0, away: 0 };
  const opening = pricesPatch(1, score, false);
  for (const mk of m.finalMarkets) {
    if (mk.id !== marketId('1x2') && mk.id !== totalId)
      opening.push({ id: mk.id, status: MARKET_STATUS.SUSPENDED });
  }
  steps.push({ minute: -1, commands: [patch(opening), betStop(false)] });
  let stopped = false;
  const goalMinutes = new Set<number>();
  const every = Math.max(1, Math.floor(options.priceEveryMin ?? 1));
  /** A quiet minute that sends the prices that moved. */
  const pricing = (i: number) => every === 1 || minutes[i]!.clock % every === 0;
  minutes.forEach((min, i) => {
    const scored = goals.filter((g) => g.half === min.half && g.clock === min.clock);
    const commands: TradingCommand[] = [];
    let goal: MinuteCommands['goal'];
    if (scored.length > 0) {
      for (const g of scored) score[g.side]++;
      goalMinutes.add(i);
      if (!stopped) commands.push(betStop(true));
      commands.push({
        kind: 'update_scores',
        method: 'PATCH',
        path: `${base}/scores`,
        body: scoresBody(m, [['total', SCORE_TYPE.TOTAL, 0, score]]),
      });
      stopped = true;
      goal = { side: scored[scored.length - 1]!.side, score: { ...score } };
    } else if (stopped) {
      // a minute after the goal: the new prices, then the markets reopen
      const p = pricesPatch(min.remaining, score, false);
      if (p.length > 0) commands.push(patch(p));
      commands.push(betStop(false));
      stopped = false;
    } else if (pricing(i)) {
      const p = pricesPatch(min.remaining, score, true);
      if (p.length > 0) commands.push(patch(p));
    }
    const lastOfHalf = min.half === 1 && minutes[i + 1]?.half === 2;
    if (lastOfHalf && row.halfTime) {
      commands.push({
        kind: 'update_scores',
        method: 'PATCH',
        path: `${base}/scores`,
        body: scoresBody(m, [
          ['total', SCORE_TYPE.TOTAL, 0, score],
          ['period:1', SCORE_TYPE.PERIOD, 1, score],
        ]),
      });
    }
    steps.push({ minute: i, commands, ...(goal ? { goal } : {}) });
  });
  // the final whistle: nothing more is taken on the match
  steps.push({ minute: minutes.length, commands: stopped ? [] : [betStop(true)] });

  // ---------------------------------------------------------------------------------------------- live bets
  const bets: LiveBetPlan[] = [];
  const count = options.liveBets ?? LIVE_BETS_PER_MATCH;
  /** Minutes after which the markets are open (not a goal minute, not the last one). */
  const open = minutes
    .map((_, i) => i)
    .filter((i) => !goalMinutes.has(i) && i >= 1 && i < minutes.length - 2);
  const beforeGoal = open.filter((i) => goalMinutes.has(i + 1));
  const goalsBy = (i: number) =>
    goals.filter(
      (g) => g.half < minutes[i]!.half || (g.half === minutes[i]!.half && g.clock <= minutes[i]!.clock),
    ).length;
  const overWonBy = (i: number) => goalsBy(i) > line;
  for (let k = 0; k < count && open.length > 0; k++) {
    const r = rng.fork(`bet/${k}`);
    // the first bet of a match with a goal is sent the minute before it: the goal's bet stop falls in its delay
    let minute = k === 0 && beforeGoal.length > 0 ? r.pick(beforeGoal) : r.pick(open);
    let during: DuringDelay = goalMinutes.has(minute + 1) ? 'goal' : r.chance(0.5) ? 'odds' : 'none';
    if (during === 'odds' && !pricing(minute + 1)) {
      // prices go out every few minutes: the bet waits for the next minute that sends them
      const later = open.find((j) => j > minute && pricing(j + 1) && !goalMinutes.has(j + 1));
      if (later === undefined) during = 'none';
      else minute = later;
    }
    const strategy: Strategy =
      during === 'odds'
        ? r.chance(0.5)
          ? 1
          : 3
        : r.weighted([
            [1, 0.3],
            [2, 0.2],
            [3, 0.5],
          ] as const);
    const bet: LiveBetPlan = {
      key: `replay-${options.seed}-live-${matchIndex}-${k}`,
      index: k,
      player: r.int(options.players),
      minute,
      // the total while it trades (until the over has won), else the 1X2
      market: hasTotal && r.chance(0.4) && !overWonBy(minute) ? 'total' : '1x2',
      stake: stakeOf(r, 2, 60),
      strategy,
      during,
    };
    if (r.chance(0.6)) {
      const at = Math.min(minutes.length - 2, minute + 2 + r.int(25));
      if (at > minute + 1) {
        bet.cashOut = {
          minute: at,
          kind: r.chance(0.5) ? 'full' : 'partial',
          via: r.chance(0.5) ? 'frame' : 'partner',
        };
      }
    }
    bets.push(bet);
  }
  return {
    match: matchIndex,
    sportEventId: m.sportEventId,
    model,
    margins,
    goals,
    stoppage,
    minutes,
    steps,
    bets,
  };
}
