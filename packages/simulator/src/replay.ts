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
 * The steps, each in its file: the plan (`replay-plan.ts`), the players' accounts and the white label's settings
 * (`replay-setup.ts`), the timeline (`replay-timeline.ts`), settlement (`replay-settlement.ts`), the report
 * (`replay-collect.ts`).
 *
 * @packageDocumentation
 */
import { FeedReplica } from '@bookie/sdk';
import { TradingCommandError } from './apply-script.js';
import { platformClients } from './platform-clients.js';
import { collectReport } from './replay-collect.js';
import type { ReplayOptions, ReplayProgress, ReplayResult } from './replay-options.js';
import { planReplay } from './replay-plan.js';
import type { ReplayRun } from './replay-run.js';
import { waitForSettlement } from './replay-settlement.js';
import { setUpReplay } from './replay-setup.js';
import type { ReplayTarget } from './replay-target.js';
import { runTimeline } from './replay-timeline.js';
import { ReportedBets } from './reported-bets.js';

export type { ReplayTarget };
export { sleep } from './pacing.js';
export * from './replay-options.js';
export { type Action, buildTimeline } from './replay-plan.js';

const noop = () => {};

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
  const planned = planReplay(options);
  const { script, plan, steps, actions, everyone } = planned;
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

  const clients = platformClients(target, {
    connections: concurrency + 8,
    tradingConnections: 8,
    keepAliveTimeout: 60_000,
  });
  const { base, agent, partner, trading } = clients;
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

  const run: ReplayRun = {
    target,
    options,
    started,
    seed,
    currency,
    speed,
    concurrency,
    signal,
    planned,
    clients,
    replica,
    reported,
    windowFrom,
    sessions: new Array(everyone.length),
    deposits: new Map(),
    progress,
    report,
  };
  try {
    await setUpReplay(run);
    const timeline = await runTimeline(run);
    await waitForSettlement(run, timeline.lastVersion);
    const replayMs = performance.now() - timeline.runStarted;
    return await collectReport(run, timeline, replayMs);
  } finally {
    await replica.stop().catch(noop);
    await trading.close().catch(noop);
    await agent.close().catch(noop);
  }
}

export { TradingCommandError };
