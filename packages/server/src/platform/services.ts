import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * The leaf services every process builds once at start: the validated config, the database, the logger, the clock
 * and the lifecycle (what stops, in order, at shutdown). A module's `deps.ts` names the ones it needs (a `Pick` of
 * these) next to what it needs of other modules; the composition root (`app/`) hands them over.
 */
export interface PlatformServices {
  config: Config;
  database: Database;
  logger: Logger;
  clock: Clock;
  lifecycle: Lifecycle;
}
