import type pino from 'pino';
import type { Database } from '../db/database.js';
import type { Authenticator, UserAuthenticator } from '../http/auth.js';
import type { BetEvents } from '../modules/bets/bet-events.js';
import type { CallbacksService } from '../modules/callbacks/callbacks.service.js';
import type { FeedService } from '../modules/feed/feed.service.js';
import type { SessionEvents } from '../modules/frame/session-events.js';
import type { BookieMetrics } from '../modules/metrics/metrics.js';
import type { PlacementDeps } from '../modules/placement/index.js';
import type { RiskDeps } from '../modules/risk/deps.js';
import type { SettlementConsumer } from '../modules/settlement/consumer/settlement-consumer.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { LeaderLease } from '../platform/leadership/leader-lease.js';
import type { Lifecycle } from '../platform/lifecycle.js';

/**
 * Everything a module needs, built once at start and passed down (no globals). Modules add their own
 * services to this object in {@link buildDeps} as they land.
 */
export interface AppDeps {
  config: Config;
  database: Database;
  logger: pino.Logger;
  clock: Clock;
  lifecycle: Lifecycle;
  /** Partner and player authentication (the tenancy module provides it). */
  authenticator?: Authenticator;
  /** Backoffice sessions (the users module provides it). */
  users?: UserAuthenticator;
  /** The callback outbox: targets, HTTP sender and dispatcher (started by {@link startBackground}). */
  callbacks: CallbacksService;
  /** The trading feed of this process: fan-out of the log (`/log`) and the catalog (the server's FeedReplica). */
  feed: FeedService;
  /** Bet changes of this process, for the players' live streams. */
  betEvents: BetEvents;
  /** Everything bet placement needs. */
  placement: PlacementDeps;
  /** The risk engine's settings, exposure and players' risk (its settings work even with RISK_ENGINE=off). */
  risk: RiskDeps;
  /** Frame session ends (heartbeat refusals, D47) for this process's frame streams. */
  sessionEvents: SessionEvents;
  /** The settlement consumer of this process, once {@link startBackground} started it. */
  settlement?: SettlementConsumer;
  /**
   * The leases of the one-process background roles (docs/adr/0025-scale-out.md), by role; empty on a feed node.
   * The settlement consumer's lease (role `settlement`, `SETTLEMENT_LEASE_TTL_MS`) is started and stopped with it.
   */
  leases: Record<string, LeaderLease>;
  /** This process's Prometheus metrics (`/metrics`). */
  metrics?: BookieMetrics;
}
