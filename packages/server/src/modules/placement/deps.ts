import type { Logger } from 'pino';
import type { BetEvents } from '../bets/index.js';
import type { CallbacksService } from '../callbacks/index.js';
import type { DecisionDeps, DecisionSettings } from '../decision/index.js';
import type { WhiteLabel } from '../tenants/index.js';
import type { PlacementWrites } from './placement-writes.js';

/** Settings of placement: the decision's, and how long a hold may take. */
export interface PlacementSettings extends DecisionSettings {
  /** How long a bet may stay in hold_requested before recovery force-declines it (ms). */
  placementDeadlineMs: number;
  /** The attempts of `/bet/place` (D9); the default is `DEFAULT_PLACE_POLICY`. */
  placePolicy?: PlaceRetryPolicy;
}

/** What placement needs: the one decision's inputs, the partner's callbacks, the writes and the player's stream. */
export interface PlacementDeps extends DecisionDeps {
  logger: Logger;
  callbacks: CallbacksService;
  whiteLabels: { get(id: string): Promise<WhiteLabel> };
  sessions: { expire(whiteLabelId: string, token: string): Promise<void> };
  betEvents: BetEvents;
  /** The group commit of holds and decisions. */
  writes: PlacementWrites;
  /** Told of every bet this process decided (Prometheus metrics); optional. */
  metrics?: {
    betDecided(bet: { whiteLabelId: string; state: string; createdAt: Date; decidedAt: Date | null }): void;
  };
  settings: PlacementSettings;
}

/** Attempt timeouts and pauses of the `/bet/place` hold: 3 attempts within about 5 s in all (D9). */
export interface PlaceRetryPolicy {
  attemptTimeoutsMs: number[];
  pausesMs: number[];
}
