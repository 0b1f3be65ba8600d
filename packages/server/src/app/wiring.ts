import { CALLBACK_PATHS } from '@bookie/contracts';
import { BoundedMemo, expressCapInCurrency, parseDecimal, type Rational } from '@bookie/core';
import { openDatabase } from '@bookie/storage';
import pino from 'pino';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { endSessionOfBet } from '../modules/auth/auth.repo.js';
import { createAuthenticator } from '../modules/auth/authenticator.js';
import { expireSession } from '../modules/auth/expire-session.js';
import { BetEvents } from '../modules/bets/bet-events.js';
import {
  onInsuranceAcceptedUnsupported,
  onInsuranceCancelUnsupported,
} from '../modules/bonuses/on-insurance-callback-unsupported.js';
import { runCallbackRetention } from '../modules/callbacks/callback-retention.js';
import { createCallbacksService } from '../modules/callbacks/callbacks.service.js';
import type { OptionalCallbackHooks } from '../modules/callbacks/dispatcher.js';
import { callbackSender } from '../modules/callbacks/send-callback.js';
import { whiteLabelTargets } from '../modules/callbacks/white-label-targets.js';
import { reverseUnpayableCashOut } from '../modules/cash-out/reverse-unpayable-cash-out.js';
import { startFeed } from '../modules/feed/feed.service.js';
import { startHeartbeats } from '../modules/frame/send-heartbeats.js';
import { SessionEvents } from '../modules/frame/session-events.js';
import { BookieMetrics } from '../modules/metrics/metrics.js';
import type { PlacementDeps } from '../modules/placement/index.js';
import { PlacementWrites } from '../modules/placement/placement-writes.js';
import { recoverPlacements } from '../modules/placement/recover-placements.js';
import type { RiskDeps } from '../modules/risk/deps.js';
import { OddsShader } from '../modules/risk/odds-shader.js';
import { RiskBook } from '../modules/risk/risk-book.js';
import { SettlementConsumer } from '../modules/settlement/consumer/settlement-consumer.js';
import { cachedWhiteLabels } from '../modules/tenants/cached-white-labels.js';
import { learnOptionalCallback } from '../modules/tenants/learn-optional-callback.js';
import { auditSubjectOf } from '../modules/users/audit-subjects.js';
import { usersDeps } from '../modules/users/deps.js';
import { sessionAuthenticator } from '../modules/users/session-authenticator.js';
import { type Clock, systemClock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { LeaderLease, runWhileLeader } from '../platform/leadership/leader-lease.js';
import { Lifecycle } from '../platform/lifecycle.js';
import type { AppDeps } from './app-deps.js';
import { frameDeps, settlementDeps } from './module-deps.js';

export type { AppDeps };

/** The background roles that run in one process at a time, each under its lease. */
export const LEADER_ROLES = ['retention', 'placement-recovery', 'heartbeats'] as const;

/** Options for {@link buildDeps}; tests pass an open database and a silent logger. */
export interface BuildDepsOptions {
  database?: Database;
  logger?: pino.Logger;
  clock?: Clock;
}

/** Opens the database, applies migrations, and builds the dependencies. */
export async function buildDeps(configIn: Config, opts: BuildDepsOptions = {}): Promise<AppDeps> {
  // a feed node cannot write: it records no frame session activity (the primary's processes send heartbeats)
  const config: Config =
    configIn.scaleOut.role === 'feed'
      ? { ...configIn, frame: { ...configIn.frame, heartbeatIntervalS: 0 } }
      : configIn;
  const logger = opts.logger ?? pino({ level: config.logLevel, base: { svc: 'bookie' } });
  const database =
    opts.database ??
    (await openDatabase(
      config.databaseUrl
        ? {
            url: config.databaseUrl,
            poolSize: config.dbPoolSize,
            preparedStatements: config.dbPreparedStatements,
            pipeline: config.dbPipeline,
          }
        : { dataDir: config.dataDir },
    ));
  const lifecycle = new Lifecycle();
  lifecycle.onStop('database', () => database.close());
  const feedNode = config.scaleOut.role === 'feed';
  // a feed node reads a streaming replica, which cannot be written: the primary's processes migrate it
  if (!feedNode) {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  const leases: Record<string, LeaderLease> = {};
  if (!feedNode) {
    for (const role of LEADER_ROLES) {
      leases[role] = new LeaderLease({ database, logger }, role, {
        ttlMs: config.scaleOut.leaderLeaseMs,
        // the embedded database has one process (its data-dir lock): a lease held by another holder is a dead one's
        exclusive: database.kind === 'pglite',
      });
    }
  }
  const clock = opts.clock ?? systemClock;
  // a connection per callback in flight: the dispatcher's window is the one on the wire (ADR 0055)
  const sender = callbackSender({
    timeoutMs: config.callbacks.timeoutMs,
    concurrency: config.callbacks.concurrency,
  });
  // set once the feed and the rest exist (below); the sender reports its attempts to it
  let metrics: BookieMetrics | undefined;
  sender.onAttempt = (path, status) => metrics?.callbackAttempt(path, status);
  lifecycle.onStop('callback sender', () => sender.close());
  // optional callbacks: what the partner's answers teach of its white label, and what an unsupported one undoes in
  // the same transaction (the optional callbacks rule)
  const onUnsupported: NonNullable<OptionalCallbackHooks['onUnsupported']> = {
    // an insurance refund is paid at most once: what stands when its accepted or cancel is not implemented
    [CALLBACK_PATHS.insuranceAccepted]: onInsuranceAcceptedUnsupported,
    [CALLBACK_PATHS.insuranceCancel]: onInsuranceCancelUnsupported,
  };
  const optionalCallbackHooks: OptionalCallbackHooks = { learn: learnOptionalCallback, onUnsupported };
  const sessionEvents = new SessionEvents();
  const callbacks = createCallbacksService(database, whiteLabelTargets({ database, clock }), sender, logger, {
    concurrency: config.callbacks.concurrency,
    leaseMs: config.callbacks.leaseMs,
    pollMs: config.callbacks.pollMs,
    doorbell: config.scaleOut.doorbell,
    optional: optionalCallbackHooks,
    // a callback answered auth_session_unknown / auth_credentials_expired ends the bet's session (the sessions rule)
    onSessionEnding: async (d) => {
      const ended = await endSessionOfBet(database.db, d.bet_id, new Date(clock.now()));
      if (ended) sessionEvents.ended(ended, 'callback');
    },
  });
  const feed = await startFeed({
    database,
    logger,
    clock,
    lifecycle,
    settings: config.feed,
    retentionLease: feedNode ? false : leases.retention,
    doorbell: config.scaleOut.doorbell,
    // a replica cannot LISTEN, and the doorbell may be off: then the fan-out polls
    ...(feedNode || !config.scaleOut.doorbell ? { tail: { listen: false, pollMs: 200 } } : {}),
  });
  const betEvents = new BetEvents();
  const rates = config.bets.eurRates;
  /** The express cap by EUR rate text: each rate parsed once, on its first use (every decision asks). */
  const expressCaps = new BoundedMemo<Rational>(1000);
  const book = new RiskBook(database.db, config.risk.settingsCacheMs, () => clock.now());
  const shadeMax = parseDecimal(config.risk.shadeMax, { field: 'RISK_SHADE_MAX' });
  const shader =
    config.risk.enabled && shadeMax.num > 0n
      ? new OddsShader({
          trading: { database, clock, feed },
          book,
          settings: {
            from: parseDecimal(config.risk.shadeFrom, { field: 'RISK_SHADE_FROM' }),
            maxShare: shadeMax,
          },
          logger,
        })
      : undefined;
  if (shader) lifecycle.onStop('odds shader', () => shader.idle());
  const risk: RiskDeps = {
    database,
    clock,
    config: config.risk,
    eurRates: rates,
    book,
    ...(shader ? { shader } : {}),
  };
  const whiteLabels = cachedWhiteLabels({ database, clock });
  const settlementLeader: { current?: () => boolean } = {};
  metrics = new BookieMetrics({
    database,
    logger,
    hub: feed.hub,
    leases: () => Object.values(leases),
    settlementLeader: () => settlementLeader.current?.() ?? false,
    modeOf: async (id) => (await whiteLabels.get(id)).mode,
    exposure: config.risk.enabled,
  });
  const placement: PlacementDeps = {
    database,
    clock,
    logger,
    catalog: feed.catalog,
    callbacks,
    whiteLabels,
    metrics,
    sessions: {
      expire: (whiteLabelId, token) => expireSession({ database, clock }, { whiteLabelId, token }),
    },
    betEvents,
    writes: new PlacementWrites(database, { dispatcher: callbacks.dispatcher }),
    settings: {
      oddsTolerance: parseDecimal(config.bets.oddsTolerance, { field: 'ODDS_TOLERANCE', maxDecimals: 12 }),
      expressCap: (currency) => {
        const rate = rates[currency];
        if (!rate) return undefined;
        return (
          expressCaps.get(rate) ??
          expressCaps.keep(
            rate,
            expressCapInCurrency(parseDecimal(rate, { field: 'EUR_RATES', maxDecimals: 12 })),
          )
        );
      },
      placementDeadlineMs: config.bets.placementDeadlineMs,
      maxSystemCombinations: config.bets.maxSystemCombinations,
    },
    // the risk engine decides bets unless RISK_ENGINE=off
    ...(config.risk.enabled ? { risk } : {}),
  };
  const deps: AppDeps = {
    feed,
    betEvents,
    sessionEvents,
    placement,
    risk,
    config,
    database,
    logger,
    clock,
    lifecycle,
    authenticator: createAuthenticator(
      { database, clock },
      { accessTokenCacheMs: config.auth.accessTokenCacheMs },
    ),
    users: sessionAuthenticator(usersDeps({ database, clock, config }), auditSubjectOf({ database, clock })),
    callbacks,
    leases,
    metrics,
  };
  settlementLeader.current = () => deps.settlement?.status().leader ?? false;
  // a cash-out whose payment callback proves unsupported is reversed in the transaction that records it
  const reversal = settlementDeps(deps);
  onUnsupported[CALLBACK_PATHS.cashOutAccepted] = (tx, delivery) =>
    reverseUnpayableCashOut(reversal, tx, delivery);
  return deps;
}

/** Starts the background work of this process (the outbox dispatcher, …); each registers its stop. */
export async function startBackground(deps: AppDeps): Promise<void> {
  // a feed node (read-only replica) runs no background work
  if (deps.config.scaleOut.role === 'feed') return;
  for (const lease of Object.values(deps.leases)) {
    lease.start();
    // registered first, so stopped last: the roles stop before their leases are given up
    deps.lifecycle.onStop(`${lease.role} lease`, () => lease.stop());
  }
  await deps.callbacks.dispatcher.start();
  deps.lifecycle.onStop('callback dispatcher', () => deps.callbacks.dispatcher.stop());
  startRecovery(deps);
  startCallbackRetention(deps);
  const settlement = new SettlementConsumer(settlementDeps(deps), {
    ...deps.config.settlement,
    // the embedded database has one process (its data-dir lock): a lease held by another holder is a dead one's
    exclusive: deps.database.kind === 'pglite',
  });
  settlement.start();
  deps.settlement = settlement;
  deps.lifecycle.onStop('settlement consumer', () => settlement.stop());
  deps.lifecycle.onStop('frame heartbeats', startHeartbeats(frameDeps(deps), deps.leases.heartbeats));
}

/**
 * Periodically removes old delivered placement callbacks from the outbox (`CALLBACK_RETENTION_S`), in the leader of
 * the `retention` role.
 */
function startCallbackRetention(deps: AppDeps): void {
  const lease = deps.leases.retention;
  const { retentionS, retentionIntervalS } = deps.config.callbacks;
  if (!lease || retentionS <= 0 || retentionIntervalS <= 0) return;
  const stop = runWhileLeader(
    lease,
    retentionIntervalS * 1000,
    async (fence) => {
      const r = await runCallbackRetention(deps, { retentionS }, fence);
      if (r.deleted > 0) deps.logger.info({ ...r, throughId: r.throughId.toString() }, 'callback retention');
    },
    (err) => deps.logger.error({ err }, 'callback retention failed'),
  );
  deps.lifecycle.onStop('callback retention', stop);
}

/**
 * Periodically finishes placements interrupted by a crash, in the leader of the
 * `placement-recovery` role.
 */
function startRecovery(deps: AppDeps): void {
  const lease = deps.leases['placement-recovery'];
  if (!lease) return;
  const stop = runWhileLeader(
    lease,
    deps.config.bets.recoveryIntervalMs,
    async (fence) => {
      const ids = await recoverPlacements(deps.database, 100, fence);
      if (ids.length > 0) {
        deps.logger.warn({ bets: ids }, 'placements interrupted; bets force-declined');
        deps.callbacks.dispatcher.kick();
      }
    },
    (err) => deps.logger.error({ err }, 'placement recovery failed'),
  );
  deps.lifecycle.onStop('placement recovery', stop);
}
