import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import type pino from 'pino';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { FrameConfig } from '../../platform/config.js';
import type { PlatformServices } from '../../platform/services.js';
import type { BetEvents } from '../bets/index.js';
import type { BonusesDeps } from '../bonuses/index.js';
import type { CallbackSender, CallbackTargets } from '../callbacks/index.js';
import type { FeedService } from '../feed/index.js';
import type { PlacementDeps } from '../placement/index.js';
import type { WhiteLabel } from '../tenants/index.js';
import type { SessionEvents } from './session-events.js';

/** What the betting frame's server side needs (DECISIONS D47–D49). */
export interface FrameDeps {
  database: Database;
  clock: Clock;
  logger: pino.Logger;
  settings: FrameConfig;
  /** The white labels, through a short cache. */
  whiteLabels: { get(id: string): Promise<WhiteLabel> };
  /** Where and how to call a white label's partner server (callback URL, D11 signature). */
  targets: CallbackTargets;
  sender: CallbackSender;
  /** Tells this process's open frame streams that their session ended. */
  sessionEvents: SessionEvents;
}

/** What the frame's routes need besides {@link FrameDeps}: the replica, placement, bonuses and the players' live streams. */
export interface FrameRoutesDeps extends Pick<PlatformServices, 'database' | 'clock' | 'config'> {
  frame: FrameDeps;
  feed: FeedService;
  placement: PlacementDeps;
  bonuses: BonusesDeps;
  betEvents: BetEvents;
  sessionEvents: SessionEvents;
  /** Registers the player's cash-out routes (the cash-out module's) behind the frame's player checks. */
  cashOutRoutes(app: FastifyInstance, player: preHandlerHookHandler[], errors: Record<number, unknown>): void;
}
