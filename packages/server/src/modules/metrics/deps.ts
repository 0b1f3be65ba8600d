import type pino from 'pino';
import type { Database } from '../../db/database.js';

/** What the metrics read at each scrape; every part is optional but the database. */
export interface MetricsDeps {
  database: Database;
  logger: pino.Logger;
  /** This process's fan-out of the log. */
  hub?: { head: bigint; followerStats(): { count: number; maxLag: bigint } };
  /** The leases of the one-process roles held or followed by this process. */
  leases?: () => Iterable<{ role: string; isLeader: boolean }>;
  /** Whether this process leads settlement (its consumer keeps its own lease). */
  settlementLeader?: () => boolean;
  /** A white label's mode (`turnkey`, `mts`, `advisory`), through a short cache. */
  modeOf?: (whiteLabelId: string) => Promise<string>;
  /** Sum exposure per sport and phase (when the risk engine keeps exposure). */
  exposure?: boolean;
}
