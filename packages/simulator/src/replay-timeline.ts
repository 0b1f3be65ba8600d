/**
 * The replay's timeline run in (simulated) time: trading steps, bets and the matches in play, in order per sport
 * event.
 */
import type { PlaceBetRequest } from '@bookie/contracts';
import { type Bettor, type ChosenSelection, chooseSelections, type PlannedBet } from './bettors.js';
import { type CashOutOutcome, type LiveBetOutcome, runInPlay } from './in-play-runner.js';
import { sleep } from './pacing.js';
import { Rng } from './prng.js';
import { MATCHES_IN_PLAY_AT_ONCE } from './replay-options.js';
import type { ReplayRun } from './replay-run.js';
import type { BetOutcome } from './report.js';
import type { ScriptStep, TradingCommand } from './season-script.js';

/** What the timeline did: every bet's outcome, the cash-outs, and the feed version it ended at. */
export interface TimelineOutcome {
  outcomes: BetOutcome[];
  liveOutcomes: LiveBetOutcome[];
  cashOuts: CashOutOutcome[];
  inPlayCommands: number;
  /** The feed version of the last trading command. */
  lastVersion: bigint;
  /** When the timeline started (`performance.now()`). */
  runStarted: number;
  timelineMs: number;
}

const noop = () => {};

/**
 * Runs the timeline: at max speed actions overlap, but everything that touches one sport event keeps the timeline's
 * order (see `replay.ts`); a player places one bet at a time.
 *
 * @throws TradingCommandError when Bookie refuses a trading command; the abort reason when the run is aborted.
 */
export async function runTimeline(run: ReplayRun): Promise<TimelineOutcome> {
  const {
    options,
    seed,
    currency,
    speed,
    concurrency,
    signal,
    sessions,
    deposits,
    replica,
    reported,
    progress,
    report,
  } = run;
  const { script, population, plan, livePlayers, actions } = run.planned;
  const { base, agent, partner, trading, frame, wallet } = run.clients;
  const inPlay = options.inPlay;
  const liveOutcomes: LiveBetOutcome[] = [];
  const cashOuts: CashOutOutcome[] = [];
  let inPlayCommands = 0;

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
  return { outcomes, liveOutcomes, cashOuts, inPlayCommands, lastVersion, runStarted, timelineMs };
}
