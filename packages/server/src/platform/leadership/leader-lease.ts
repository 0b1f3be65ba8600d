import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/transaction.js';
import type { LeadershipDeps, LeaseSettings } from './deps.js';
import { acquireLease, holdsLease, releaseLease, renewLease } from './leadership.repo.js';

/** Thrown inside a role's write transaction when this process no longer leads the role: the write rolls back. */
export class LeadershipLostError extends Error {
  constructor(readonly role: string) {
    super(`${role}: this process no longer leads the role`);
    this.name = 'LeadershipLostError';
  }
}

/**
 * The leadership of one background role among the server processes on one database (docs/adr/0025-scale-out.md):
 * a lease row with holder, epoch and expiry. Every third of the lease this process renews it when it leads, or
 * tries to take it when it does not, so a holder that died is replaced within lease + a third (under twice the
 * lease). Writes of the role call {@link LeaderLease.fence} in their transaction: a process that lost the lease
 * (paused, partitioned, slow) cannot write after another took over.
 */
export class LeaderLease {
  /** This process's id as holder (unique per start). */
  readonly holder: string;
  private epochHeld: bigint | undefined;
  /** Local time (ms) until which the lease is surely still ours: the last renewal's start + the lease. */
  private validUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private readonly listeners: Array<(leader: boolean) => void> = [];

  constructor(
    private readonly deps: LeadershipDeps,
    readonly role: string,
    private readonly settings: LeaseSettings,
    holder = `${role}-${randomUUID()}`,
  ) {
    this.holder = holder;
  }

  /** True while this process leads the role (by its own clock; writes check the database through fence). */
  get isLeader(): boolean {
    return this.epochHeld !== undefined && Date.now() < this.validUntil;
  }

  /** The epoch held, or undefined when not leading. */
  get epoch(): bigint | undefined {
    return this.isLeader ? this.epochHeld : undefined;
  }

  /** Calls `listener(true)` when this process becomes leader and `listener(false)` when it stops being one. */
  onChange(listener: (leader: boolean) => void): void {
    this.listeners.push(listener);
  }

  /** Starts competing for the role (tries at once, then every third of the lease). */
  start(): void {
    if (this.timer) return;
    const every = Math.max(50, Math.floor(this.settings.ttlMs / 3));
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
    this.tick();
  }

  /** Stops competing and gives the lease up if held, so another process takes over at its next try. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    if (this.epochHeld !== undefined) {
      this.set(undefined);
      await releaseLease(this.deps.database.db, this.role, this.holder).catch(() => {});
    }
  }

  /**
   * Fencing, inside a write transaction of the role: share-locks the lease row and checks this process still holds
   * it at its epoch. @throws LeadershipLostError otherwise (the transaction then rolls back).
   */
  async fence(tx: Executor): Promise<void> {
    const epoch = this.epochHeld;
    if (epoch === undefined || !(await holdsLease(tx, this.role, this.holder, epoch))) {
      if (epoch !== undefined) this.set(undefined);
      throw new LeadershipLostError(this.role);
    }
  }

  /** One renewal or one try; resolves when done (tests call it to avoid waiting a third of the lease). */
  tick(): Promise<void> {
    this.ticking ??= this.once().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async once(): Promise<void> {
    const db = this.deps.database.db;
    const { ttlMs } = this.settings;
    const startedAt = Date.now();
    try {
      if (this.epochHeld !== undefined) {
        if (await renewLease(db, this.role, this.holder, this.epochHeld, ttlMs)) {
          this.validUntil = startedAt + ttlMs;
          return;
        }
        this.deps.logger.warn({ role: this.role, holder: this.holder }, 'leadership lost');
        this.set(undefined);
      }
      const epoch = await acquireLease(db, this.role, this.holder, ttlMs, this.settings.exclusive === true);
      if (epoch !== undefined) {
        this.validUntil = startedAt + ttlMs;
        this.deps.logger.info({ role: this.role, holder: this.holder, epoch: epoch.toString() }, 'leading');
        this.set(epoch);
      }
    } catch (err) {
      this.deps.logger.warn({ err, role: this.role }, 'leadership: the lease could not be renewed or taken');
      if (this.epochHeld !== undefined && Date.now() >= this.validUntil) this.set(undefined);
    }
  }

  private set(epoch: bigint | undefined): void {
    const was = this.epochHeld !== undefined;
    this.epochHeld = epoch;
    if (epoch === undefined) this.validUntil = 0;
    const is = epoch !== undefined;
    if (was !== is) for (const l of this.listeners) l(is);
  }
}

/**
 * Runs `work` every `intervalMs` while `lease` is held (and once at each takeover); `work` gets the fence to call
 * in its write transactions. A round that finds the lease lost ends quietly; other errors go to `onError`.
 * Returns the stop.
 */
export function runWhileLeader(
  lease: LeaderLease,
  intervalMs: number,
  work: (fence: (tx: Executor) => Promise<void>) => Promise<unknown>,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running || !lease.isLeader) return;
    running = work((tx) => lease.fence(tx))
      .catch((err) => {
        if (!(err instanceof LeadershipLostError)) onError(err);
      })
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  lease.onChange((leader) => {
    if (leader) tick();
  });
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
