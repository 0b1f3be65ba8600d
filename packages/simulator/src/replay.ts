/**
 * The replay: a season (or several) through the whole platform — trading commands into Bookie, the feed out of it,
 * players betting through the frame API with their money at the reference wallet, callbacks, settlement — then the
 * report and its reconciliation (docs/adr/0011-replay-and-demo.md).
 *
 * The runner knows the platform only by its URLs and credentials ({@link ReplayTarget}); whoever starts the
 * processes (the `bookie replay` and `bookie demo` commands, tests) hands them in.
 *
 * Order. The season script (trading steps) and the bets of the plan form one timeline in simulated time. At max
 * speed actions overlap, but everything that touches one sport event keeps the timeline's order: a trading step of
 * an event waits for the bets on it that come before, a bet waits for the event's earlier steps and for the
 * bettors' feed replica to show them. So an odds update never overtakes a bet placed before it, bet stop never
 * cuts a bet short, and the same seed makes the same choices. A player also places one bet at a time.
 *
 * @packageDocumentation
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { BetView, PlaceBetRequest } from '@bookie/contracts';
import { add, formatMoney, parseDecimal, ZERO } from '@bookie/core';
import { FeedReplica } from '@bookie/sdk';
import { type Speed, TradingCommandError } from './apply-script.js';
import {
  type Bettor,
  type ChosenSelection,
  chooseSelections,
  makePopulation,
  type PlannedBet,
  planBets,
} from './bettors.js';
import { callJson, type WalletClient } from './clients.js';
import type { ParsedSeason } from './football-data.js';
import { type InPlayPlan, type InPlayPlanOptions, planInPlay } from './in-play.js';
import { type CashOutOutcome, type LiveBetOutcome, runInPlay } from './in-play-runner.js';
import { platformClients } from './platform-clients.js';
import { Rng } from './prng.js';
import type { ReplayTarget } from './replay-target.js';
import { type BetOutcome, type BetsOutLine, betsOutLine, buildReport, type ReplayReport } from './report.js';
import { ReportedBets } from './reported-bets.js';
import { collectRiskReport, configureRiskLimits } from './risk-report.js';
import {
  buildSeasonScript,
  type ScriptStep,
  type SeasonScript,
  type TradingCommand,
} from './season-script.js';

export type { ReplayTarget };

/** What the runner reports while it runs. */
export interface ReplayProgress {
  phase: 'setup' | 'running' | 'settling' | 'collecting' | 'done';
  actionsDone: number;
  actionsTotal: number;
  stepsDone: number;
  stepsTotal: number;
  betsDone: number;
  betsTotal: number;
  accepted: number;
  notAccepted: number;
  matchesEnded: number;
  matchesTotal: number;
  /** Simulated time of the latest action started (unix ms). */
  simulatedAt: number;
  /** The latest full-time score, e.g. `Arsenal 2-1 Chelsea`. */
  lastResult?: string;
}

/** Options of {@link runReplay}. */
export interface ReplayOptions {
  seasons: readonly ParsedSeason[];
  /** Seed of the bettors (default `"1"`). */
  seed?: string;
  /** Bets to place in all (default {@link BETS_PER_MATCH} per match). */
  bets?: number;
  /** Players (default one per 30 bets, at least 10). */
  players?: number;
  /** `'max'` (default) or N× real time. */
  speed?: Speed;
  /** With a numeric speed: the longest real wait between two actions, ms (idle days pass quickly). */
  maxWaitMs?: number;
  /**
   * Actions in flight at once (default 24). Matches in play, and the steps that wait for one to end, are bounded by
   * {@link InPlayOptions.matchesAtOnce} instead.
   */
  concurrency?: number;
  /** The white label's currency (default EUR). */
  currency?: string;
  /** The white label's stake limits, EUR, for the plan (a few bets cross them on purpose). */
  minStake?: number;
  maxStake?: number;
  /** How long to wait for settlement after the last trading command (default 180 s). */
  settleTimeoutMs?: number;
  /**
   * The liability limit per outcome (EUR, prematch and live) to configure on the white label before the run; the
   * report then adds the risk section (needs `target.whiteLabelId`).
   */
  riskLimitEur?: string;
  /**
   * The in-play phase (docs/adr/0026-in-play-replay.md): each match played minute by minute with live prices, bet
   * stops at goals, live bets under a bet delay and cash-outs. Off when absent. Needs `target.whiteLabelId`.
   */
  inPlay?: InPlayOptions;
  signal?: AbortSignal;
  onProgress?: (p: Readonly<ReplayProgress>) => void;
}

/** Options of the in-play phase. */
export interface InPlayOptions {
  /** Live bets per match (default 6). */
  liveBetsPerMatch?: number;
  /** In-play players, their own population (default one per 8 live bets, at least 10). */
  players?: number;
  /** Minutes between two price updates of a quiet spell (default 1; see {@link InPlayPlanOptions.priceEveryMin}). */
  priceEveryMin?: number;
  /** The white label's live bet delay, whole seconds, set before the run (default 1). */
  betDelayS?: number;
  /**
   * Matches in play at once (default {@link MATCHES_IN_PLAY_AT_ONCE}): the matches whose play overlaps in simulated
   * time run side by side, each one's minutes, bets and cash-outs still strictly in order.
   */
  matchesAtOnce?: number;
}

/** Matches in play at once when none is given: a Saturday afternoon's kick-offs. */
export const MATCHES_IN_PLAY_AT_ONCE = 10;

/** Offsets of the in-play script: full time after the longest match (45 + 4 + 15 + 45 + 6 minutes). */
const IN_PLAY_TIMELINE = { fullTime: 125 * 60_000, results: 126 * 60_000, ended: 127 * 60_000 };

/** What {@link runReplay} returns. */
export interface ReplayResult {
  report: ReplayReport;
  /** One audit line per placed bet (`--bets-out`), in plan order. */
  lines: BetsOutLine[];
  script: SeasonScript;
}

/** Bets per match when none is given: 14, so a season of 380 matches makes 5,320 bets. */
export const BETS_PER_MATCH = 14;

type Action =
  | { at: number; rank: 0; seq: number; kind: 'step'; step: ScriptStep }
  | { at: number; rank: 0; seq: number; kind: 'in_play'; plan: InPlayPlan }
  | { at: number; rank: 1 | 2; seq: number; kind: 'look' | 'place'; bet: PlannedBet };

/** Waits `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(ms, undefined, signal ? { signal } : {}).catch((err: unknown) => {
    throw signal?.aborted ? signal.reason : err;
  });

/** Runs `fn` over `items`, at most `limit` at a time. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}

const noop = () => {};

/**
 * The timeline: trading steps and bet actions in simulated time (steps first on a tie, then looks, then bets); a
 * match's in-play phase starts at its kick-off, after the kick-off steps.
 */
export function buildTimeline(
  steps: readonly ScriptStep[],
  plan: readonly PlannedBet[],
  inPlay: readonly InPlayPlan[] = [],
): Action[] {
  const actions: Action[] = [];
  let seq = 0;
  for (const step of steps) actions.push({ at: step.at, rank: 0, seq: seq++, kind: 'step', step });
  for (const p of inPlay) {
    const kickOff = (p.minutes[0]?.at ?? 0) - 60_000;
    actions.push({ at: kickOff, rank: 0, seq: seq++, kind: 'in_play', plan: p });
  }
  for (const bet of plan) {
    if (bet.lookAt !== undefined) actions.push({ at: bet.lookAt, rank: 1, seq: seq++, kind: 'look', bet });
    actions.push({ at: bet.at, rank: 2, seq: seq++, kind: 'place', bet });
  }
  actions.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  return actions;
}

/**
 * Replays the seasons through the platform at `target` and reports. The database behind `target` must not hold
 * these sport events yet (their ids are deterministic: a second import answers 409).
 *
 * @throws TradingCommandError when Bookie refuses a trading command (the run stops); the abort reason when
 *   `signal` aborts; Error when settlement does not finish within `settleTimeoutMs`.
 */
export async function runReplay(target: ReplayTarget, options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  const seed = options.seed ?? '1';
  const currency = options.currency ?? 'EUR';
  const speed = options.speed ?? 'max';
  const concurrency = Math.max(1, options.concurrency ?? 24);
  const signal = options.signal;
  const inPlay = options.inPlay;
  const script = buildSeasonScript(options.seasons, inPlay ? IN_PLAY_TIMELINE : {});
  const totalBets = options.bets ?? script.matches.length * BETS_PER_MATCH;
  const population = makePopulation(seed, options.players ?? Math.max(10, Math.ceil(totalBets / 30)));
  const plan = planBets(script, {
    seed,
    bets: totalBets,
    population,
    ...(options.minStake !== undefined ? { minStake: options.minStake } : {}),
    ...(options.maxStake !== undefined ? { maxStake: options.maxStake } : {}),
  });
  // in play: its own players, its own plan per match; the half-time score is sent by the in-play phase
  const livePlayers = inPlay
    ? makePopulation(
        `${seed}/in-play`,
        inPlay.players ??
          Math.max(10, Math.ceil((script.matches.length * (inPlay.liveBetsPerMatch ?? 6)) / 8)),
      ).map((b, i) => ({
        ...b,
        index: population.length + i,
        id: `live-${b.id}`,
      }))
    : [];
  const inPlayPlans = inPlay
    ? script.matches.flatMap((m, i) => {
        const p = planInPlay(m, i, {
          seed,
          players: livePlayers.length,
          ...(inPlay.liveBetsPerMatch !== undefined ? { liveBets: inPlay.liveBetsPerMatch } : {}),
          ...(inPlay.priceEveryMin !== undefined ? { priceEveryMin: inPlay.priceEveryMin } : {}),
        });
        return p ? [p] : [];
      })
    : [];
  const steps = inPlay
    ? script.steps.filter((s) => !(s.step === 'half_time' && inPlayPlans.some((p) => p.match === s.match)))
    : script.steps;
  const actions = buildTimeline(steps, plan, inPlayPlans);
  const everyone = [...population, ...livePlayers];
  const progress: ReplayProgress = {
    phase: 'setup',
    actionsDone: 0,
    actionsTotal: actions.length,
    stepsDone: 0,
    stepsTotal: steps.length,
    betsDone: 0,
    betsTotal: plan.length,
    accepted: 0,
    notAccepted: 0,
    matchesEnded: 0,
    matchesTotal: script.matches.length,
    simulatedAt: actions[0]?.at ?? 0,
  };
  const report = () => options.onProgress?.(progress);
  report();

  const { base, agent, partner, trading, frame, wallet, admin } = platformClients(target, {
    connections: concurrency + 8,
    tradingConnections: 8,
    keepAliveTimeout: 60_000,
  });
  const replica = new FeedReplica({
    baseUrl: base,
    token: () => partner.accessToken(),
    heartbeatIntervalS: 1,
    checkpointIntervalMs: 0,
  });
  replica.setMaxListeners(0); // every bet in flight waits on it
  const windowFrom = new Date(Date.now() - 60_000);
  const reported = target.reporters
    ? new ReportedBets({
        baseUrl: base,
        adminToken: target.adminToken,
        dispatcher: agent,
        script,
        seed,
        ...(target.reporters.mts ? { mts: target.reporters.mts } : {}),
        ...(target.reporters.advisory ? { advisory: target.reporters.advisory } : {}),
      })
    : undefined;

  try {
    // the players: a first deposit at the wallet, a session at Bookie (as the partner's site would make them)
    const sessions: string[] = new Array(everyone.length);
    const deposits = new Map<string, string[]>();
    await mapLimit(everyone, 8, async (b) => {
      signal?.throwIfAborted();
      await wallet.deposit(b.id, b.deposit, currency, `replay-${seed}-first-${b.id}`);
      deposits.set(b.id, [b.deposit]);
      const t = await partner.createPlayerToken({
        locale: 'en',
        currency,
        player_id: b.id,
        params: { player: b.id, currency },
      });
      sessions[b.index] = t.token;
    });
    await replica.start();
    await replica.waitFor(0n, 30_000);
    await reported?.start();
    if (options.riskLimitEur && target.whiteLabelId) {
      await configureRiskLimits(agent, base, target.adminToken, target.whiteLabelId, options.riskLimitEur);
    }
    if (inPlay) {
      // live bets wait out a bet delay (D34): what the market does meanwhile decides them
      if (!target.whiteLabelId) throw new Error('the in-play replay needs the white label id');
      await callJson(agent, 'PATCH', `${base}/admin/white-labels/${target.whiteLabelId}`, {
        token: target.adminToken,
        body: { bet_delay: inPlay.betDelayS ?? 1 },
      });
    }
    const liveOutcomes: LiveBetOutcome[] = [];
    const cashOuts: CashOutOutcome[] = [];
    let inPlayCommands = 0;

    // ------------------------------------------------------------------------------------------ the timeline
    progress.phase = 'running';
    report();
    const runStarted = performance.now();
    const outcomes: BetOutcome[] = plan.map((p) => ({ plan: p, playerId: population[p.player]!.id }));
    const looked = new Map<number, ChosenSelection[] | undefined>();
    const reloads = new Map<string, number>();
    const chains = new Map<string, { step: Promise<bigint | undefined>; readers: Promise<unknown>[] }>();
    const players = new Map<number, Promise<unknown>>();
    const chain = (id: string) => {
      let c = chains.get(id);
      if (!c) {
        c = { step: Promise.resolve(undefined), readers: [] };
        chains.set(id, c);
      }
      return c;
    };
    let failure: unknown;
    let lastVersion = 0n;
    const inFlight = new Set<Promise<unknown>>();
    // matches in play have their own bound; the actions that wait for one of them (its full time, results, ended)
    // are parked beside it, so neither holds a slot of the timeline while the match is played
    const playing = new Set<Promise<unknown>>();
    const parked = new Set<Promise<unknown>>();
    const liveEvents = new Set<string>();
    const matchesAtOnce = Math.max(1, inPlay?.matchesAtOnce ?? MATCHES_IN_PLAY_AT_ONCE);
    // the closing prices of the season (what a sharp player anticipates)
    const closing = new Map(
      script.matches.flatMap((m) =>
        m.finalMarkets.flatMap((mk) =>
          Object.values(mk.odds).map((o) => [`${m.sportEventId}/${mk.id}/${o.id}`, o.value] as const),
        ),
      ),
    );
    const closingOf = (e: string, m: string, o: string) => closing.get(`${e}/${m}/${o}`);
    const eventsOf = (bet: PlannedBet) => bet.legs.map((m) => script.matches[m]!.sportEventId);
    const maxOf = (vs: (bigint | undefined)[]) =>
      vs.reduce<bigint>((a, v) => (v !== undefined && v > a ? v : a), 0n);

    const runStep = async (step: ScriptStep): Promise<bigint> => {
      const res = await trading.send(step.command);
      const v = BigInt(res.version);
      if (v > lastVersion) lastVersion = v;
      // the partner-reported bets of the other white labels: reported on closing odds, settled once ended
      await reported?.afterStep(step);
      progress.stepsDone++;
      if (step.step === 'ended') progress.matchesEnded++;
      if (step.step === 'full_time') {
        const row = script.matches[step.match]!.row;
        progress.lastResult = `${row.home} ${row.fullTime.home}-${row.fullTime.away} ${row.away}`;
      }
      return v;
    };

    const look = async (bet: PlannedBet, version: bigint) => {
      await replica.waitFor(version, 30_000);
      const session = sessions[bet.player]!;
      // a late bettor reads the odds in the betting frame, then takes a few minutes to send the bet
      const events = await Promise.all(eventsOf(bet).map((id) => frame.getEvent(session, id)));
      looked.set(
        bet.index,
        chooseSelections(new Rng(`${seed}/choose/${bet.index}`), population[bet.player]!, events, closingOf),
      );
    };

    const place = async (bet: PlannedBet, version: bigint) => {
      const outcome = outcomes[bet.index]!;
      const bettor: Bettor = population[bet.player]!;
      await replica.waitFor(version, 30_000);
      let selections = looked.get(bet.index);
      looked.delete(bet.index);
      if (bet.lookAt === undefined) {
        const events = eventsOf(bet).map((id) => replica.getEvent(id));
        if (events.some((e) => !e)) {
          outcome.skipped = 'a sport event is missing from the feed';
          return;
        }
        selections = chooseSelections(
          new Rng(`${seed}/choose/${bet.index}`),
          bettor,
          events.map((e) => e!),
          closingOf,
        );
      }
      if (!selections) {
        outcome.skipped = 'no open market';
        return;
      }
      outcome.selections = selections;
      const body: PlaceBetRequest = {
        bet_type: bet.type,
        selections,
        stake: bet.stake,
        currency,
        odds_strategy: bet.strategy,
        client_key: bet.key,
        ...(bet.systemSizes ? { system_sizes: bet.systemSizes } : {}),
      };
      const placed = await frame.placeBetRetrying(sessions[bet.player]!, body, signal);
      if ('error' in placed) {
        outcome.error = placed.error;
        return;
      }
      outcome.answer = placed.answer;
      const a = outcome.answer;
      if (a.status === 1) progress.accepted++;
      else progress.notAccepted++;
      // a player who ran out of money tops up (three times at most), as players do
      if (a.status === 10 && a.restrictions.some((r) => r.type === 'not_enough_balance')) {
        const n = reloads.get(bettor.id) ?? 0;
        if (n < 3) {
          reloads.set(bettor.id, n + 1);
          await wallet.deposit(
            bettor.id,
            bettor.deposit,
            currency,
            `replay-${seed}-reload-${bettor.id}-${n + 1}`,
          );
          deposits.get(bettor.id)!.push(bettor.deposit);
        }
      }
    };

    const first = actions[0]?.at ?? 0;
    const clock0 = performance.now();
    let shift = 0;
    /** A match in play paces its minutes as the timeline paces its actions (no wait at max speed). */
    const pace = async (at: number) => {
      if (speed === 'max') return;
      const wait = clock0 + (at - first) / speed - shift - performance.now();
      if (wait > 0) await sleep(Math.min(wait, options.maxWaitMs ?? wait), signal);
    };
    const sendInPlay = async (command: TradingCommand) => {
      const res = await trading.send(command);
      const v = BigInt(res.version);
      if (v > lastVersion) lastVersion = v;
      inPlayCommands++;
    };
    const inPlayContext = {
      seed,
      currency,
      send: sendInPlay,
      frame,
      wallet,
      dispatcher: agent,
      baseUrl: base,
      partnerToken: () => partner.accessToken(),
      players: livePlayers,
      sessions: sessions.slice(population.length),
      pace,
      ...(signal ? { signal } : {}),
    };
    for (const action of actions) {
      if (failure) break;
      signal?.throwIfAborted();
      if (speed !== 'max') {
        const due = clock0 + (action.at - first) / speed - shift;
        let wait = due - performance.now();
        if (options.maxWaitMs !== undefined && wait > options.maxWaitMs) {
          shift += wait - options.maxWaitMs;
          wait = options.maxWaitMs;
        }
        if (wait > 0) await sleep(wait, signal);
      }
      const waitsForPlay =
        action.kind === 'step'
          ? liveEvents.has(action.step.sportEventId)
          : action.kind !== 'in_play' && eventsOf(action.bet).some((id) => liveEvents.has(id));
      if (action.kind === 'in_play') {
        while (playing.size >= matchesAtOnce) await Promise.race(playing);
      } else if (!waitsForPlay) {
        while (inFlight.size >= concurrency) await Promise.race(inFlight);
      }
      if (failure) break;
      progress.simulatedAt = action.at;
      let run: Promise<unknown>;
      if (action.kind === 'in_play') {
        // the match in play holds its sport event's chain: later steps (full time, results) wait for it
        const c = chain(action.plan.sportEventId);
        const deps = [c.step, ...c.readers];
        const plan = action.plan;
        liveEvents.add(plan.sportEventId);
        const live = (async () => {
          await Promise.all(deps);
          if (failure) return undefined;
          const r = await runInPlay(inPlayContext, plan, plan.match);
          liveOutcomes.push(...r.bets);
          cashOuts.push(...r.cashOuts);
          return lastVersion;
        })();
        c.step = live.catch(() => undefined);
        c.readers = [];
        run = live.finally(() => liveEvents.delete(plan.sportEventId));
      } else if (action.kind === 'step') {
        const c = chain(action.step.sportEventId);
        const deps = [c.step, ...c.readers];
        const stepRun = (async () => {
          await Promise.all(deps);
          if (failure) return undefined;
          return runStep(action.step);
        })();
        c.step = stepRun.catch(() => undefined);
        c.readers = [];
        run = stepRun;
      } else {
        const bet = action.bet;
        const ids = eventsOf(bet);
        const stepDeps = ids.map((id) => chain(id).step);
        const prev = players.get(bet.player);
        const betRun = (async () => {
          const versions = await Promise.all(stepDeps);
          await prev;
          if (failure) return;
          if (action.kind === 'look') await look(bet, maxOf(versions));
          else {
            await place(bet, maxOf(versions));
            progress.betsDone++;
          }
        })();
        const settled = betRun.catch(noop);
        for (const id of ids) chain(id).readers.push(settled);
        players.set(bet.player, settled);
        run = betRun;
      }
      const set = action.kind === 'in_play' ? playing : waitsForPlay ? parked : inFlight;
      const tracked: Promise<unknown> = run
        .catch((err) => {
          failure ??= err;
        })
        .finally(() => {
          set.delete(tracked);
          progress.actionsDone++;
          report();
        });
      set.add(tracked);
    }
    await Promise.all([...inFlight, ...playing, ...parked]);
    if (failure) throw failure;
    signal?.throwIfAborted();
    const timelineMs = performance.now() - runStarted;

    // ------------------------------------------------------------------------------ settlement, then the check
    progress.phase = 'settling';
    report();
    const deadline = Date.now() + (options.settleTimeoutMs ?? 180_000);
    for (;;) {
      const status = await admin.settlementStatus();
      if (BigInt(status.processed) >= lastVersion) break;
      if (Date.now() > deadline)
        throw new Error(`settlement did not reach version ${lastVersion} (at ${status.processed})`);
      await sleep(200, signal);
    }
    // only this run's white label: another one (e.g. created in the backoffice, its callback server dead) may keep
    // deliveries pending for ever; what stays pending past the deadline is a problem of the report, not a crash
    for (;;) {
      if ((await admin.pendingCallbacks(1000, target.whiteLabelId)) === 0) break;
      if (Date.now() > deadline) break;
      await sleep(200, signal);
    }
    const replayMs = performance.now() - runStarted;

    progress.phase = 'collecting';
    report();
    const finalBets = new Map<string, BetView>();
    // every bet, the live ones after the plan's (by match, then by their order in the match)
    liveOutcomes.sort((a, b) => a.live.match - b.live.match || a.plan.key.localeCompare(b.plan.key));
    const allOutcomes: BetOutcome[] = [...outcomes, ...liveOutcomes];
    const bettors = everyone.filter((b) => allOutcomes.some((o) => o.playerId === b.id && o.answer));
    await mapLimit(bettors, 8, async (b) => {
      for (const v of await frame.allBets(sessions[b.index]!)) finalBets.set(v.id, v);
    });
    const walletState = new Map<
      string,
      { available: string; held: string; ledger: Awaited<ReturnType<WalletClient['ledger']>> }
    >();
    await mapLimit(everyone, 8, async (b) => {
      const [bal, ledger] = await Promise.all([wallet.balance(b.id, currency), wallet.ledger(b.id)]);
      walletState.set(b.id, { ...bal, ledger });
    });
    const invariant = await wallet.checkLedger();
    const bookieReport = await admin.reconcile(windowFrom, new Date(Date.now() + 60_000));
    const mine = bookieReport.totals.filter(
      (t) => (!target.whiteLabelId || t.white_label_id === target.whiteLabelId) && t.currency === currency,
    );
    const pending = await admin.pendingCallbacks(1000, target.whiteLabelId);
    // Bookie's side of each cash-out payment: the refund amounts of its /bet/cash-out-orders/accepted callbacks
    const cashOutCallbacks = new Map<string, { status: string; refund_amount: string }[]>();
    const cashedBets = [
      ...new Set(cashOuts.filter((c) => c.order?.status.code === 'accepted').map((c) => c.betId)),
    ];
    await mapLimit(cashedBets, 8, async (betId) => {
      cashOutCallbacks.set(betId, await admin.cashOutCallbacks(betId));
    });
    const sumOf = (f: (t: (typeof mine)[number]) => string) =>
      formatMoney(mine.reduce((acc, t) => add(acc, parseDecimal(f(t), { field: 'amount' })), ZERO));
    const finalReport = buildReport({
      seed,
      currency,
      seasons: options.seasons,
      script,
      outcomes: allOutcomes,
      finalBets,
      deposits,
      ...(inPlay ? { inPlay: { cashOuts, cashOutCallbacks, commands: inPlayCommands } } : {}),
      wallet: walletState,
      walletInvariantOk: invariant.ok,
      bookie: {
        stakes_accepted: sumOf((t) => t.stakes_accepted),
        net_payout: sumOf((t) => t.net_payout),
        open_bets: mine.reduce((n, t) => n + t.open_bets, 0),
        ledger_mismatches: bookieReport.bets.mismatched,
      },
      pendingCallbacks: pending,
      timing: {
        elapsed_s: (performance.now() - started) / 1000,
        trading_commands: progress.stepsDone + inPlayCommands,
        bets_per_s: allOutcomes.filter((o) => o.answer).length / (replayMs / 1000),
        replay_s: replayMs / 1000,
        timeline_s: timelineMs / 1000,
      },
    });
    if (options.riskLimitEur && target.whiteLabelId) {
      const types = new Map(
        script.matches.flatMap((m) =>
          m.finalMarkets.map((mk) => [`${m.sportEventId}/${mk.id}`, mk.type_id] as const),
        ),
      );
      finalReport.risk = await collectRiskReport({
        dispatcher: agent,
        baseUrl: base,
        adminToken: target.adminToken,
        partnerToken: await partner.accessToken(),
        whiteLabelId: target.whiteLabelId,
        limitEur: options.riskLimitEur,
        outcomes,
        population,
        marketTypeOf: (e, m) => types.get(`${e}/${m}`),
      });
    }
    if (reported) {
      finalReport.reported = await reported.finish();
      for (const p of finalReport.reported.problems) {
        if (finalReport.reconciliation.problems.length < 20) finalReport.reconciliation.problems.push(p);
      }
      if (finalReport.reported.problems.length > 0) finalReport.reconciliation.ok = false;
    }
    const byId = new Map(script.matches.map((m) => [m.sportEventId, m]));
    const lines = allOutcomes
      .filter((o) => o.answer)
      .map((o) => betsOutLine(finalBets.get(o.answer!.id) ?? o.answer!, o.playerId, byId));
    progress.phase = 'done';
    report();
    return { report: finalReport, lines, script };
  } finally {
    await replica.stop().catch(noop);
    await trading.close().catch(noop);
    await agent.close().catch(noop);
  }
}

export { TradingCommandError };
