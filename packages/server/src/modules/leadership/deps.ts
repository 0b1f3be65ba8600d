import type pino from 'pino';
import type { Database } from '../../db/database.js';

/** What leadership needs: the shared database (the lease rows) and a logger for changes of leader. */
export interface LeadershipDeps {
  database: Database;
  logger: pino.Logger;
}

/** How long a lease lasts and how often it is renewed or tried. */
export interface LeaseSettings {
  /** Lease lifetime, ms (`LEADER_LEASE_MS`; default 15000). A dead leader is replaced within twice this. */
  ttlMs: number;
}
