import { randomUUID } from 'node:crypto';
import {
  OPTIONAL_CALLBACK_OF_PATH,
  OPTIONAL_CALLBACK_PATHS,
  UNSUPPORTED_CALLBACK_STATUSES,
} from '@bookie/contracts';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { failpoint } from '../../platform/failpoints.js';
import { WakeableSleep } from '../../platform/wakeable-sleep.js';
import { answerEndsSession } from '../auth/index.js';
import { retryDelayMs } from './backoff.js';
import {
  type ClaimedDelivery,
  claimDue,
  markAttemptFailed,
  markDelivered,
  markUnsupported,
  notifyOutbox,
  OUTBOX_CHANNEL,
  requeueBornLeased,
} from './callbacks.repo.js';
import {
  BORN_LEASED_GRACE_MS,
  type DispatcherOptions,
  type DispatcherStats,
  FLUSH_COALESCE_MS,
  NOTIFY_COALESCE_MS,
} from './dispatcher-options.js';
import type { EnqueuedCallback } from './enqueue-callbacks.js';
import type { CallbackSender, CallbackTargets } from './send-callback.js';

export type { OUTBOX_CHANNEL };

export {
  type DispatcherOptions,
  type DispatcherStats,
  FLUSH_COALESCE_MS,
  NOTIFY_COALESCE_MS,
  type OptionalCallbackHooks,
  type UnsupportedCallbackHook,
} from './dispatcher-options.js';

/**
 * Delivers the outbox at least once, in order per bet, with the same request_id and bytes on every attempt
 * (DECISIONS D7–D10). Several processes share the work through leases and SKIP LOCKED.
 *
 * Claims are coalesced (ADR 0014): the loop claims only when something may have become due — a kick or NOTIFY
 * (new rows), a batch of deliveries recorded whose bets have a next callback waiting, the poll interval (retries
 * coming due, expired leases) — or when the previous claim filled all its room (more is waiting), and, while
 * deliveries are in flight, only once `claimBatch` slots are free. Successful deliveries are recorded in batches,
 * one UPDATE per batch, without holding their slots.
 */
export class CallbackDispatcher {
  readonly owner: string;
  private running = false;
  private inFlight = 0;
  /** Claimed, not yet sent (FIFO: oldest due first), with when they were claimed. */
  private ready: Array<{ d: ClaimedDelivery; at: number }> = [];
  private readonly sleeper = new WakeableSleep();
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly idle = new Set<() => void>();
  private notifyTimer: NodeJS.Timeout | undefined;
  private pendingDone: Array<{ id: bigint; status: number }> = [];
  private flushing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Something may have become due since the last claim. */
  private dirty = true;
  /** The last claim filled its room: more rows may be due. */
  private more = false;
  private lastClaimAt = 0;
  /** When this loop last ran the recovery of born-leased rows whose process died ({@link requeueBornLeased}). */
  private lastRecoveryAt = 0;
  private readonly claimBatch: number;
  private readonly prefetch: number;
  private readonly counters: DispatcherStats = {
    claims: 0,
    claimMs: 0,
    claimed: 0,
    delivered: 0,
    failed: 0,
    flushes: 0,
    flushMs: 0,
    expired: 0,
  };

  constructor(
    private readonly database: Database,
    private readonly targets: CallbackTargets,
    private readonly sender: CallbackSender,
    private readonly logger: Logger,
    private readonly opts: DispatcherOptions,
  ) {
    this.owner = opts.owner ?? `dispatcher-${randomUUID()}`;
    this.claimBatch = Math.min(
      opts.concurrency,
      Math.max(1, Math.floor(opts.claimBatch ?? opts.concurrency / 4)),
    );
    this.prefetch = Math.max(0, Math.floor(opts.prefetch ?? opts.concurrency));
  }

  /** Counters since start. */
  stats(): DispatcherStats {
    return { ...this.counters };
  }

  /** Starts the loop and listens for enqueue notifications. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.dirty = true;
    // its own doorbell (the payload is the ringing dispatcher's owner) tells this loop nothing new
    this.unlisten = await this.database.listen(OUTBOX_CHANNEL, (payload) => {
      if (payload !== this.owner) this.markDirty();
    });
    this.loop = this.run();
  }

  /**
   * Call after a transaction that enqueued callbacks commits: wakes this process's loop now, and — only while this
   * loop has no free slot — the dispatchers of other processes, through one NOTIFY per {@link NOTIFY_COALESCE_MS} at
   * most (with a free slot this loop claims the new rows itself; waking every process for them would only have the
   * others claim nothing). The NOTIFY is sent outside the enqueuing transactions on purpose: Postgres serialises the
   * commits of transactions that NOTIFY, so a NOTIFY per bet would make every placement wait for the previous one's
   * fsync.
   */
  kick(): void {
    this.markDirty();
    if (this.notifyTimer || !this.running || this.opts.doorbell === false) return;
    if (this.inFlight < this.opts.concurrency) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      notifyOutbox(this.database.db, this.owner).catch(() => {});
    }, NOTIFY_COALESCE_MS);
  }

  /**
   * The lease new async rows may be born with, so that this dispatcher delivers them without claiming them (one row
   * version fewer, one statement fewer per batch): undefined while it is not running.
   */
  leaseForNew(): { owner: string; ms: number } | undefined {
    return this.running ? { owner: this.owner, ms: this.opts.leaseMs } : undefined;
  }

  /**
   * Delivers rows born leased to this dispatcher ({@link leaseForNew}) once the transaction that inserted them
   * committed, as if it had claimed them; no {@link kick} is needed for them (a claim would find nothing: they are
   * this dispatcher's already). Each must be the head of its bet's queue (a bet's first pending callback, as
   * `/bet/accept` and `/bet/decline` are when placement decides: its `/bet/place` is written delivered). Stopped, it
   * leaves them: once their lease expired the recovery of born-leased rows hands them to the queue
   * ({@link requeueBornLeased}) and any dispatcher claims them.
   */
  adopt(rows: readonly EnqueuedCallback[]): void {
    if (!this.running) return;
    for (const r of rows) {
      this.counters.claimed++;
      // the row as a claim returns it (one object shape for both)
      this.deliver({
        id: r.id,
        request_id: r.requestId,
        white_label_id: r.whiteLabelId,
        bet_id: r.betId,
        path: r.path,
        body: r.body,
        foreign_params: r.foreignParams,
        attempts: 0,
      });
    }
  }

  /** Rows may have become due: claim at the next chance. */
  private markDirty(): void {
    this.dirty = true;
    this.wakeUp();
  }

  /** Wakes this process's loop only. */
  private wakeUp(): void {
    this.sleeper.wake();
  }

  /**
   * Stops claiming, sends what it holds claimed (in flight and ready, at most `concurrency + prefetch`) and waits for
   * it, releases nothing (leases simply expire).
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.notifyTimer);
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.wakeUp();
    await this.loop;
    while (this.inFlight > 0 || this.ready.length > 0) {
      this.pump();
      if (this.inFlight === 0) break;
      await new Promise<void>((r) => this.idle.add(r));
    }
    await this.flush();
    await this.unlisten?.();
  }

  /** How many more deliveries a claim may take now (0: not worth a claim yet). */
  private claimRoom(): number {
    const held = this.inFlight + this.ready.length;
    const room = this.opts.concurrency + this.prefetch - held;
    return room >= (held === 0 ? 1 : this.claimBatch) ? room : 0;
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (Date.now() - this.lastClaimAt >= this.opts.pollMs) this.dirty = true;
      if (Date.now() - this.lastRecoveryAt >= this.opts.pollMs) await this.recoverBornLeased();
      const room = this.claimRoom();
      if (room > 0 && (this.dirty || this.more)) {
        this.dirty = false;
        this.lastClaimAt = Date.now();
        let claimed: ClaimedDelivery[] = [];
        try {
          // a flush running meanwhile is not waited for: a delivered row not yet recorded keeps its bet's next
          // callback out of this claim (D10 order), and the flush marks the loop dirty when such a successor exists
          const t0 = performance.now();
          claimed = await claimDue(this.database.db, this.owner, this.opts.leaseMs, room);
          this.counters.claimMs += performance.now() - t0;
          this.counters.claims++;
          this.counters.claimed += claimed.length;
          this.more = claimed.length === room;
        } catch (err) {
          this.more = false;
          this.logger.error({ err }, 'outbox claim failed');
        }
        const at = Date.now();
        for (const d of claimed) this.ready.push({ d, at });
        this.pump();
        if (claimed.length > 0) continue;
      }
      if (!this.running) break;
      // a kick, or slots freed, while the claim ran (a wake with nobody asleep is lost): look again before sleeping
      if (this.claimRoom() > 0 && (this.dirty || this.more)) continue;
      const wait = Math.max(1, this.opts.pollMs - (Date.now() - this.lastClaimAt));
      await this.sleeper.sleep(wait);
    }
  }

  /**
   * Hands to the queue the rows born leased to a dispatcher that did not record them before their lease expired (its
   * process died, or it left them to their lease): they are not in the claim's index until then (ADR 0063). Once per
   * poll interval; a run that queued rows makes the loop claim.
   */
  private async recoverBornLeased(): Promise<void> {
    this.lastRecoveryAt = Date.now();
    try {
      const requeued = await requeueBornLeased(
        this.database.db,
        this.opts.leaseMs + (this.opts.bornLeasedGraceMs ?? BORN_LEASED_GRACE_MS),
      );
      if (requeued > 0) this.dirty = true;
    } catch (err) {
      this.logger.error({ err }, 'outbox recovery of born-leased rows failed');
    }
  }

  /**
   * Sends ready deliveries while slots are free, oldest claimed first. One whose lease would no longer outlast an
   * attempt is not sent: it stays leased until its lease ends and is claimed again then, a born-leased one once the
   * recovery has queued it (no attempt outlives its lease, so no other process sends it while this one does).
   */
  private pump(): void {
    const budget = this.opts.leaseMs - this.sender.timeoutMs;
    while (this.inFlight < this.opts.concurrency && this.ready.length > 0) {
      const next = this.ready.shift() as { d: ClaimedDelivery; at: number };
      if (Date.now() - next.at >= budget) {
        this.counters.expired++;
        continue;
      }
      this.deliver(next.d);
    }
  }

  private deliver(d: ClaimedDelivery): void {
    this.inFlight++;
    this.attempt(d)
      .catch((err) => this.logger.error({ err, requestId: d.request_id }, 'delivery bookkeeping failed'))
      .finally(() => {
        this.inFlight--;
        this.pump();
        if (this.inFlight === 0) {
          // only when the last delivery ends: stop() waits for all of them
          for (const r of this.idle) r();
          this.idle.clear();
        }
        this.wakeUp();
      });
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    let result: Awaited<ReturnType<CallbackSender['send']>>;
    let wasUnsupported = false;
    try {
      const target = await this.targets.get(d.white_label_id);
      wasUnsupported = target.unsupportedPaths?.has(d.path) ?? false;
      result = await this.sender.send(target, {
        requestId: d.request_id,
        path: d.path,
        body: d.body,
        foreignParams: d.foreign_params,
      });
    } catch (err) {
      result = {
        ok: false,
        status: null,
        error: err instanceof Error ? err.message : String(err),
        body: null,
      };
    }
    if (result.ok) {
      failpoint('dispatcher:after-answer');
      this.counters.delivered++;
      // a 2xx to an optional callback learnt unsupported: the partner implements it now
      if (wasUnsupported) await this.learnSupported(d, result.status);
      this.pendingDone.push({ id: d.id, status: result.status });
      // recorded in the background, batched with the others answered meanwhile; the slot is free at once (the row
      // stays leased until then, so no one claims it again, and its bet's next callback waits for it)
      this.scheduleFlush();
      return;
    }
    this.counters.failed++;
    if (
      result.status !== null &&
      UNSUPPORTED_CALLBACK_STATUSES.has(result.status) &&
      OPTIONAL_CALLBACK_PATHS.has(d.path)
    ) {
      // D45: the partner does not implement this optional callback; the bet's queue goes on without it
      this.logger.warn(
        { requestId: d.request_id, path: d.path, betId: d.bet_id, status: result.status },
        'optional callback not implemented by the partner; marked unsupported',
      );
      if (await this.recordUnsupported(d, result.status, result.error)) this.markDirty();
      return;
    }
    if (this.opts.onSessionEnding && result.status !== null && answerEndsSession(result.body)) {
      // the partner says the player's session is over: it ends; the callback itself is still delivered (D10)
      await this.opts
        .onSessionEnding(d)
        .catch((err) => this.logger.error({ err, requestId: d.request_id }, 'ending the session failed'));
    }
    const delayMs = this.opts.retryDelay?.(d.attempts + 1) ?? retryDelayMs(d.attempts + 1, this.opts.random);
    this.logger.warn(
      {
        requestId: d.request_id,
        path: d.path,
        betId: d.bet_id,
        attempt: d.attempts + 1,
        error: result.error,
        delayMs,
      },
      'callback delivery failed; will retry',
    );
    await markAttemptFailed(this.database.db, this.owner, d.id, {
      status: result.status,
      error: result.error,
      delayMs,
    });
  }

  /**
   * Records an unsupported optional callback in one transaction: the delivery (never retried), what Bookie learnt of
   * the white label, and the undoing of what relied on it. Returns whether the bet has a next callback waiting. A
   * lease lost meanwhile changes nothing (the row is another owner's now).
   */
  private async recordUnsupported(d: ClaimedDelivery, status: number, error: string): Promise<boolean> {
    const callback = OPTIONAL_CALLBACK_OF_PATH[d.path];
    const hooks = this.opts.optional;
    let afterCommit: (() => void) | undefined;
    const next = await inTransaction(this.database.db, async (tx) => {
      afterCommit = undefined;
      const { recorded, next } = await markUnsupported(tx, this.owner, d.id, { status, error });
      if (!recorded) return false;
      if (hooks && callback) {
        await hooks.learn(tx, {
          whiteLabelId: d.white_label_id,
          callback,
          learnt: 'unsupported',
          status,
          at: new Date(),
        });
        afterCommit = (await hooks.onUnsupported?.[d.path]?.(tx, d)) ?? undefined;
      }
      return next;
    });
    try {
      afterCommit?.();
    } catch (err) {
      this.logger.error({ err, requestId: d.request_id }, 'after recording an unsupported callback');
    }
    return next;
  }

  /** Records that a white label implements an optional callback it had answered 404/405/501 before. */
  private async learnSupported(d: ClaimedDelivery, status: number): Promise<void> {
    const callback = OPTIONAL_CALLBACK_OF_PATH[d.path];
    const hooks = this.opts.optional;
    if (!hooks || !callback) return;
    await inTransaction(this.database.db, (tx) =>
      hooks.learn(tx, {
        whiteLabelId: d.white_label_id,
        callback,
        learnt: 'supported',
        status,
        at: new Date(),
      }),
    ).catch((err) =>
      this.logger.error({ err, requestId: d.request_id }, 'recording a supported callback failed'),
    );
  }

  /**
   * Records the delivered rows now if `claimBatch` of them are waiting, else at most {@link FLUSH_COALESCE_MS} ms from
   * now, with those answered meanwhile.
   */
  private scheduleFlush(): void {
    if (this.pendingDone.length >= this.claimBatch) {
      this.startFlush();
      return;
    }
    this.flushAfter(FLUSH_COALESCE_MS);
  }

  /** Starts a flush `ms` from now, unless one is already timed. */
  private flushAfter(ms: number): void {
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.startFlush();
    }, ms);
  }

  /** Starts a flush unless one is running (that one takes the new rows when it ends). */
  private startFlush(): void {
    if (this.flushing) return;
    this.flush().catch((err) => {
      this.logger.error({ err }, 'recording deliveries failed; will retry');
      // the rows are kept: try again at the poll interval (not at every answer while the database fails)
      this.flushAfter(this.opts.pollMs);
    });
  }

  /**
   * Writes successful deliveries in batches (one UPDATE per batch, not one per callback) until none is left. A
   * failed write keeps its rows for the next flush; a row whose lease ran out meanwhile is simply not updated (it is
   * sent again: at least once).
   */
  private async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pendingDone.length === 0) return;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const run = async () => {
      try {
        // after the first batch, go on at once only while a full batch waits (or the dispatcher stops); fewer wait
        // for the coalescing timer with those answered meanwhile
        let first = true;
        while (
          this.pendingDone.length > 0 &&
          (first || this.pendingDone.length >= this.claimBatch || !this.running)
        ) {
          first = false;
          const batch = this.pendingDone;
          this.pendingDone = [];
          try {
            const t0 = performance.now();
            const { successors } = await markDelivered(this.database.db, this.owner, batch);
            this.counters.flushMs += performance.now() - t0;
            this.counters.flushes++;
            // a delivered bet's next callback is now due: claim it
            if (successors > 0) this.markDirty();
          } catch (err) {
            this.pendingDone = batch.concat(this.pendingDone);
            throw err;
          }
        }
      } finally {
        this.flushing = undefined;
      }
    };
    this.flushing = run();
    await this.flushing;
    if (this.pendingDone.length > 0) this.scheduleFlush();
  }
}
