import type pino from 'pino';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { FrameConfig } from '../../platform/config.js';
import type { CallbackSender, CallbackTargets } from '../callbacks/send-callback.js';
import type { WhiteLabel } from '../tenants/white-label.js';
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
