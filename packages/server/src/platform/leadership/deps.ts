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
  /**
   * This process is the only one on its database (the embedded, single-process one): it takes each role at once,
   * so a restart after a crash does not wait for the dead process's lease to expire.
   */
  exclusive?: boolean;
}
