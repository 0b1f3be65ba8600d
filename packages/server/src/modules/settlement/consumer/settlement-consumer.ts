import { randomUUID } from 'node:crypto';
import type { LogEntry, SportEvent } from '@bookie/contracts';
import { type Executor, inTransaction } from '../../../db/transaction.js';
import { LeaderLease, LeadershipLostError } from '../../../platform/leadership/leader-lease.js';
import { WakeableSleep } from '../../../platform/wakeable-sleep.js';
import type { LogFollower, LogItem } from '../../feed/index.js';
import type { ConsumerDeps } from '../deps.js';
import { listQuarantine, setQuarantineStatus } from '../quarantine.repo.js';
import type { Applied } from '../results/apply-results.js';
import { impactOf, marketResults } from '../results/results.js';
import { rollbackBets } from '../results/rollback-bets.js';
import {
  type BatchOptions,
  DEFAULT_PAGE_SIZE,
  DEFAULT_PAGES_IN_FLIGHT,
  settleMarket,
} from '../results/settle-market.js';
import {
  eventsWithOpenBets,
  loadEventResults,
  loadEventSnapshot,
  readOffset,
  saveOffset,
} from '../settlement.repo.js';
import type { ConsumerOptions, ConsumerStatus } from './consumer-options.js';
import { isTransient, StoppingError } from './failures.js';
import { quarantineItem } from './quarantine.js';
import { sweepAcceptedBets } from './sweep.js';

/**
 * The settlement consumer (docs/adr/0008-settlement.md): follows the log from its own saved version
 * (consumer_offset `settlement`) like any replica, as the one leader per database (a lease row with a fencing
 * epoch), and turns results into settlements: odd statuses, market and fixture cancellations, dead heats and
 * bet_rollback entries. Each entry is processed completely — in batches — before its version is saved, so a
 * restart re-processes at most the entries after the saved version; settlement is idempotent, so nothing is
 * settled twice. A periodic sweep catches bets accepted while their market was being resulted.
 */
export class SettlementConsumer {
  readonly name: string;
  readonly owner: string;
  /** The one-leader lease of the consumer (docs/adr/0025-scale-out.md), started and stopped with it. */
  readonly lease: LeaderLease;
  private readonly opts: Required<Omit<ConsumerOptions, 'afterBatch' | 'name' | 'owner' | 'exclusive'>> &
    Pick<ConsumerOptions, 'afterBatch'>;
  private running = false;
  private loop: Promise<void> | undefined;
  private epoch: bigint | undefined;
  private lost = false;
  private queue: LogItem[] = [];
  private follower: LogFollower | undefined;
  private ended: 'closed' | 'expired' | 'error' | undefined;
  private readonly sleeper = new WakeableSleep();
  private drainWaiters: Array<() => void> = [];
  private waiters: Array<{ v: bigint; resolve: () => void }> = [];
  private processed = 0n;
  private savedVersion = 0n;
  private lastSaveAt = 0;
  private lastSweepAt = 0;
  /** Bets whose placement deadline is after this (reported ones: minus an overlap) are looked at next (clock ms). */
  private sweepFrom = 0;
  private readonly stats = {
    entries: 0,
    settled: 0,
    unsettled: 0,
    resettled: 0,
    callbacks: 0,
    failures: 0,
    quarantined: 0,
  };
  /** An operator asked for a retry of quarantined entries: look at once instead of at the next sweep. */
  private retryRequested = true;

  constructor(
    private readonly deps: ConsumerDeps,
    options: ConsumerOptions = {},
  ) {
    this.name = options.name ?? 'settlement';
    this.owner = options.owner ?? `settlement-${randomUUID()}`;
    this.opts = {
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      pagesInFlight: options.pagesInFlight ?? DEFAULT_PAGES_IN_FLIGHT,
      leaseTtlMs: options.leaseTtlMs ?? 15_000,
      sweepIntervalMs: options.sweepIntervalMs ?? 2_000,
      sweepWindowMs: options.sweepWindowMs ?? 10 * 60_000,
      catalogWaitMs: options.catalogWaitMs ?? 2_000,
      offsetSaveMs: options.offsetSaveMs ?? 1_000,
      quarantineAfter: options.quarantineAfter ?? 5,
      afterBatch: options.afterBatch,
    };
    this.lease = new LeaderLease(
      { database: deps.database, logger: deps.logger },
      this.name,
      { ttlMs: this.opts.leaseTtlMs, exclusive: options.exclusive === true },
      this.owner,
    );
    // a lost lease ends the leading at the next entry or batch (whose fence fails anyway); a won one starts it
    this.lease.onChange((leader) => {
      if (!leader) this.lost = true;
      this.signal();
    });
  }

  /** Starts competing for leadership and, once leader, consuming. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops at the next batch boundary, saves the version of the last complete entry, gives the lease up. */
  async stop(): Promise<void> {
    this.running = false;
    this.signal();
    await this.loop;
  }

  /** The consumer's state. */
  status(): ConsumerStatus {
    return { leader: this.epoch !== undefined, processed: this.processed.toString(), ...this.stats };
  }

  /** Resolves once the entry at `version` (and everything before it) is processed (rejects after `timeoutMs`). */
  waitFor(version: bigint, timeoutMs = 30_000): Promise<void> {
    if (this.processed >= version) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { v: version, resolve: () => {} };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`settlement: version ${version} not processed (at ${this.processed})`));
      }, timeoutMs);
      w.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(w);
    });
  }

  /** Has the leader look at entries an operator asked to retry now (an in-process admin call). */
  requestRetry(): void {
    this.retryRequested = true;
    this.signal();
  }

  private signal(): void {
    this.sleeper.wake();
  }

  private idle(ms: number): Promise<void> {
    return this.sleeper.sleep(ms);
  }

  private markProcessed(v: bigint): void {
    if (v > this.processed) this.processed = v;
    if (this.waiters.length === 0) return;
    const done = this.waiters.filter((w) => w.v <= this.processed);
    this.waiters = this.waiters.filter((w) => w.v > this.processed);
    for (const w of done) w.resolve();
  }

  // ------------------------------------------------------------------------------------------ leadership

  private async run(): Promise<void> {
    const { logger } = this.deps;
    this.lease.start();
    while (this.running) {
      const epoch = this.lease.epoch;
      if (epoch === undefined) {
        // the lease's listener wakes this when the lease is won
        await this.idle(Math.max(50, Math.floor(this.opts.leaseTtlMs / 3)));
        continue;
      }
      this.epoch = epoch;
      this.lost = false;
      logger.info({ owner: this.owner, epoch: epoch.toString() }, 'settlement: leading');
      let failed = false;
      try {
        await this.lead();
      } catch (err) {
        if (!(err instanceof LeadershipLostError || err instanceof StoppingError)) {
          failed = true;
          logger.error({ err }, 'settlement: consumer failed');
        }
      } finally {
        this.follower?.close();
        this.follower = undefined;
        this.queue = [];
        this.releaseDrain();
        if (!this.lost) await this.saveNow().catch(() => {});
        else logger.warn({ owner: this.owner }, 'settlement: lease lost; following again');
        this.epoch = undefined;
      }
      if (failed && this.running) await this.idle(1000);
    }
    // a clean stop gives the lease up, so another process takes over at its next try
    await this.lease.stop();
  }

  /**
   * Fencing of every write of the leader, inside its transaction: the lease is still held at the epoch this process
   * leads with. @throws LeadershipLostError otherwise (the transaction rolls back).
   */
  private async holdsLease(tx: Executor): Promise<void> {
    if (!this.lost && this.epoch !== undefined) {
      await this.lease.fence(tx);
      // a lease lost and won again meanwhile: the leading that began with the old epoch is over
      if (!this.lost) return;
    }
    this.lost = true;
    throw new LeadershipLostError(this.name);
  }

  /** The fence of a batch: also ends the leading at a batch boundary when the consumer is stopping. */
  private async fence(tx: Executor): Promise<void> {
    if (!this.running) throw new StoppingError();
    await this.holdsLease(tx);
  }

  private batchOptions(): BatchOptions {
    return {
      pageSize: this.opts.pageSize,
      pagesInFlight: this.opts.pagesInFlight,
      fence: (tx) => this.fence(tx),
      afterBatch: this.opts.afterBatch,
    };
  }

  // -------------------------------------------------------------------------------------------- the log

  private follow(from: bigint): void {
    this.ended = undefined;
    this.follower = this.deps.hub.follow(from, {
      write: (item) => {
        this.queue.push(item);
        this.signal();
        return this.queue.length < 2000;
      },
      drained: () =>
        this.queue.length < 1000 ? Promise.resolve() : new Promise<void>((r) => this.drainWaiters.push(r)),
      end: (reason, err) => {
        if (reason !== 'closed') this.deps.logger.error({ err, reason }, 'settlement: log follower ended');
        this.ended = reason;
        this.signal();
      },
    });
  }

  private releaseDrain(): void {
    const w = this.drainWaiters;
    this.drainWaiters = [];
    for (const r of w) r();
  }

  private async lead(): Promise<void> {
    const saved = (await readOffset(this.deps.database.db, this.name)) ?? 0n;
    this.sweepFrom = this.deps.clock.now() - this.opts.sweepWindowMs;
    this.processed = saved;
    this.savedVersion = saved;
    this.markProcessed(saved);
    this.follow(saved);
    let failures = 0;
    while (this.running && !this.lost) {
      const item = this.queue[0];
      if (item) {
        try {
          const worked = await this.processItem(item);
          this.queue.shift();
          if (this.queue.length < 1000) this.releaseDrain();
          failures = 0;
          if (item.v > this.processed) this.processed = item.v;
          // an entry that moved money is saved at once (a restart then skips it); others every offsetSaveMs
          await this.maybeSave(worked);
          this.markProcessed(item.v);
        } catch (err) {
          if (err instanceof StoppingError || !this.running) throw new StoppingError();
          if (err instanceof LeadershipLostError || this.lost) throw new LeadershipLostError(this.name);
          this.stats.failures++;
          failures++;
          if (failures >= this.opts.quarantineAfter && !isTransient(err)) {
            await this.quarantine(item, err, failures);
            failures = 0;
            this.queue.shift();
            if (this.queue.length < 1000) this.releaseDrain();
            if (item.v > this.processed) this.processed = item.v;
            await this.maybeSave(true);
            this.markProcessed(item.v);
            continue;
          }
          const delay = Math.min(30_000, 250 * 2 ** Math.min(failures, 7));
          this.deps.logger.error({ err, v: item.v.toString(), delay }, 'settlement: entry failed; retrying');
          await this.idle(delay);
        }
        continue;
      }
      if (this.ended === 'expired') {
        await this.resync();
        continue;
      }
      if (this.ended === 'error') {
        await this.idle(1000);
        this.follow(this.processed);
        continue;
      }
      const now = Date.now();
      if (this.opts.sweepIntervalMs > 0 && now - this.lastSweepAt >= this.opts.sweepIntervalMs) {
        this.retryRequested = true;
      }
      if (this.retryRequested) {
        this.retryRequested = false;
        await this.retryQuarantined();
      }
      if (this.opts.sweepIntervalMs > 0 && now - this.lastSweepAt >= this.opts.sweepIntervalMs) {
        this.lastSweepAt = now;
        await this.sweep().catch((err) => {
          if (err instanceof LeadershipLostError || err instanceof StoppingError) throw err;
          this.deps.logger.error({ err }, 'settlement: sweep failed');
        });
        continue;
      }
      await this.maybeSave(false);
      const untilSweep =
        this.opts.sweepIntervalMs > 0 ? this.opts.sweepIntervalMs - (Date.now() - this.lastSweepAt) : 60_000;
      await this.idle(Math.max(10, Math.min(untilSweep, this.opts.offsetSaveMs)));
    }
  }

  private async maybeSave(force: boolean): Promise<void> {
    if (this.processed <= this.savedVersion) return;
    if (!force && Date.now() - this.lastSaveAt < this.opts.offsetSaveMs) return;
    await this.saveNow();
  }

  private async saveNow(): Promise<void> {
    if (this.processed <= this.savedVersion) return;
    const v = this.processed;
    await inTransaction(this.deps.database.db, async (tx) => {
      await this.holdsLease(tx);
      await saveOffset(tx, this.name, v);
    });
    this.savedVersion = v;
    this.lastSaveAt = Date.now();
  }

  /** Quarantines an entry that failed `attempts` times in a row (see {@link quarantineItem}). */
  private quarantine(item: LogItem, err: unknown, attempts: number): Promise<void> {
    return quarantineItem(this.deps, this.name, item, err, attempts, {
      holdsLease: (tx) => this.holdsLease(tx),
      stored: () => this.stats.quarantined++,
    });
  }

  /** Processes the quarantined entries an operator asked to retry: resolved when they pass, back in quarantine if not. */
  private async retryQuarantined(): Promise<void> {
    const db = this.deps.database.db;
    let rows: Awaited<ReturnType<typeof listQuarantine>>;
    try {
      rows = await listQuarantine(db, this.name, 'retry');
    } catch (err) {
      this.deps.logger.error({ err }, 'settlement: reading the quarantine failed');
      return;
    }
    for (const row of rows) {
      if (!this.running || this.lost) return;
      const item: LogItem = { v: row.v, line: row.line, bytes: Buffer.alloc(0) };
      try {
        await this.processItem(item);
        await setQuarantineStatus(db, this.name, row.v, 'resolved', new Date(this.deps.clock.now()));
        this.deps.logger.warn({ v: row.v.toString() }, 'settlement: quarantined entry retried and processed');
      } catch (err) {
        if (err instanceof StoppingError || !this.running) throw new StoppingError();
        if (err instanceof LeadershipLostError || this.lost) throw new LeadershipLostError(this.name);
        await this.quarantine(item, err, 1);
      }
    }
  }

  private count(a: Applied): boolean {
    this.stats.settled += a.settled;
    this.stats.unsettled += a.unsettled;
    this.stats.resettled += a.resettled;
    this.stats.callbacks += a.callbacks;
    return a.callbacks > 0;
  }

  // ------------------------------------------------------------------------------------------ processing

  /** Processes one log entry completely; true when it enqueued callbacks. Throws to have it retried. */
  private async processItem(item: LogItem): Promise<boolean> {
    this.stats.entries++;
    const entry = JSON.parse(item.line) as LogEntry | { type: 'heartbeat' };
    if (entry.type === 'heartbeat') return false;
    const impact = impactOf(entry);
    if (impact.kind === 'none') return false;
    let worked = false;
    if (impact.kind === 'rollback' && entry.type === 'bet_rollback') {
      const applied = await rollbackBets(
        this.deps,
        {
          version: item.v,
          sportEventId: entry.match_id || entry.sport_event_id,
          marketIds: entry.market_ids ?? [],
          reason: String(entry.reason),
          dtStart: new Date(entry.dt_start),
          dtEnd: new Date(entry.dt_end),
        },
        this.batchOptions(),
      );
      this.count(applied);
      worked = true;
    } else if (impact.kind === 'event' || impact.kind === 'markets') {
      const event = await this.snapshot(entry.sport_event_id, item.v);
      if (!event) return false;
      const marketIds = impact.kind === 'event' ? Object.keys(event.markets) : [...impact.marketIds];
      worked = await this.settleEvent(event, marketIds, item.v);
    }
    return worked;
  }

  /** Brings the given markets of an event in line with its snapshot; true when a callback was enqueued. */
  private async settleEvent(event: SportEvent, marketIds: string[], v: bigint): Promise<boolean> {
    const db = this.deps.database.db;
    const stored = await loadEventResults(db, event.id);
    let worked = false;
    for (const marketId of [...marketIds].sort()) {
      const results = marketResults(event, marketId);
      if (!results) continue;
      const applied = await settleMarket(
        this.deps,
        {
          eventId: event.id,
          marketId,
          results,
          stored: stored.get(marketId),
          version: v,
          cause: `feed:${v}`,
        },
        this.batchOptions(),
      );
      if (this.count(applied)) worked = true;
    }
    return worked;
  }

  /**
   * The event's snapshot at or after version `v`: the replica's, once it has applied `v` (waiting briefly), else
   * the stored one (which is always at or after every committed entry of the event).
   */
  private async snapshot(id: string, v: bigint): Promise<SportEvent | undefined> {
    const catalog = this.deps.catalog;
    if (catalog) {
      if (catalog.version === undefined || catalog.version < v) {
        await catalog.waitFor(v, this.opts.catalogWaitMs).catch(() => {});
      }
      if (catalog.version !== undefined && catalog.version >= v) {
        const e = catalog.getEvent(id);
        if (e) return e;
      }
    }
    const row = await loadEventSnapshot(this.deps.database.db, id);
    return row ? (JSON.parse(row.snapshot) as SportEvent) : undefined;
  }

  /** Runs the sweep of recently accepted bets (see {@link sweepAcceptedBets}) from the consumer's watermark. */
  private async sweep(): Promise<void> {
    await sweepAcceptedBets(this.deps, {
      from: this.sweepFrom,
      moveFrom: (ms) => {
        this.sweepFrom = ms;
      },
      fence: (tx) => this.fence(tx),
      count: (applied) => this.count(applied),
    });
  }

  /**
   * The log expired under the consumer (it was away longer than log retention, DECISIONS D22): every event with an
   * open bet is brought in line with its current snapshot, then the consumer follows from the head. Rollbacks in the
   * lost range cannot be recovered; they are logged as a risk.
   */
  private async resync(): Promise<void> {
    const head = this.deps.hub.head;
    this.deps.logger.error(
      { from: this.processed.toString(), head: head.toString() },
      'settlement: the log expired under the consumer; resyncing from snapshots (bet_rollback entries in the gap are lost)',
    );
    const db = this.deps.database.db;
    for (const id of await eventsWithOpenBets(db)) {
      const row = await loadEventSnapshot(db, id);
      if (!row) continue;
      const event = JSON.parse(row.snapshot) as SportEvent;
      await this.settleEvent(event, Object.keys(event.markets), row.version);
    }
    this.queue = [];
    this.markProcessed(head);
    await this.saveNow();
    this.follow(head);
  }
}
