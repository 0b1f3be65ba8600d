import type { BatchOptions } from '../results/settle-market.js';

/** Tuning of the consumer. */
export interface ConsumerOptions {
  /** consumer_offset name and leader lease role (default `settlement`). */
  name?: string;
  /** This process's holder id of the lease (default a random one). */
  owner?: string;
  /** Selections per batch transaction (default 1000). */
  pageSize?: number;
  /** Pages of a market prepared at once, committed in order (default 2; see BatchOptions.pagesInFlight). */
  pagesInFlight?: number;
  /**
   * Lease lifetime, ms (default 15,000): the leader renews it and a follower tries to take it every third of it, so
   * a dead leader is replaced within twice this.
   */
  leaseTtlMs?: number;
  /**
   * This process is the only one on its database (the embedded one): it takes the lease at once, so a restart after
   * a crash does not wait for the dead process's lease to run out (default false).
   */
  exclusive?: boolean;
  /** How often the sweep of recently accepted bets runs, ms (default 2,000; 0 = never). */
  sweepIntervalMs?: number;
  /** How far back the first sweep of a new leader looks, ms (default 10 min). */
  sweepWindowMs?: number;
  /** How long to wait for the replica to reach an entry before reading the stored snapshot, ms (default 2,000). */
  catalogWaitMs?: number;
  /** How often the version is saved when entries need no work, ms (default 1,000). */
  offsetSaveMs?: number;
  /**
   * Attempts after which an entry that keeps failing is quarantined and the consumer goes on past it (default 5;
   * docs/adr/0016-safety-and-conformance.md).
   */
  quarantineAfter?: number;
  /** Called after every batch commits (tests cut a batch short from here). */
  afterBatch?: BatchOptions['afterBatch'];
}

/** The consumer's state, for logs, status routes and tests. */
export interface ConsumerStatus {
  leader: boolean;
  /** The version of the last entry fully processed. */
  processed: string;
  /** Entries processed since start. */
  entries: number;
  settled: number;
  unsettled: number;
  resettled: number;
  callbacks: number;
  /** Entries that failed and were retried. */
  failures: number;
  /** Entries this process put in quarantine since start (the status route adds the stored count). */
  quarantined: number;
}
