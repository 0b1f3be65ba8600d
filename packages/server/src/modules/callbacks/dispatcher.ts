import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { failpoint } from '../../app/failpoints.js';
import type { Database } from '../../db/database.js';
import { retryDelayMs } from './backoff.js';
import { type CallbackDelivery, claimDue, markAttemptFailed, markDelivered } from './callbacks.repo.js';
import type { CallbackSender, CallbackTargets } from './send-callback.js';

/** NOTIFY channel that wakes dispatchers in every process when callbacks are enqueued. */
export const OUTBOX_CHANNEL = 'bookie_outbox';

/** At most one cross-process NOTIFY per this many ms (see {@link CallbackDispatcher.kick}). */
export const NOTIFY_COALESCE_MS = 50;

/** Tuning of the dispatcher. */
export interface DispatcherOptions {
  /** Deliveries in flight at once (across bets; one per bet at a time). */
  concurrency: number;
  /** How long a claim is held before another process may take the row (ms). */
  leaseMs: number;
  /** Poll interval when nothing wakes it (ms). */
  pollMs: number;
  /** Identifies this process's leases. */
  owner?: string;
  random?: () => number;
  /** Delay before the next attempt after `failedAttempts` failures; default the D10 ladder with jitter. */
  retryDelay?: (failedAttempts: number) => number;
}

/**
 * Delivers the outbox at least once, in order per bet, with the same request_id and bytes on every attempt
 * (DECISIONS D7–D10). Several processes share the work through leases and SKIP LOCKED.
 */
export class CallbackDispatcher {
  readonly owner: string;
  private running = false;
  private inFlight = 0;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly idle = new Set<() => void>();
  private notifyTimer: NodeJS.Timeout | undefined;
  private pendingDone: Array<{ id: bigint; status: number }> = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    private readonly targets: CallbackTargets,
    private readonly sender: CallbackSender,
    private readonly logger: Logger,
    private readonly opts: DispatcherOptions,
  ) {
    this.owner = opts.owner ?? `dispatcher-${randomUUID()}`;
  }

  /** Starts the loop and listens for enqueue notifications. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unlisten = await this.database.listen(OUTBOX_CHANNEL, () => this.wakeUp());
    this.loop = this.run();
  }

  /**
   * Call after a transaction that enqueued callbacks commits: wakes this process's loop now, and the dispatchers of
   * other processes through one NOTIFY per {@link NOTIFY_COALESCE_MS} at most. The NOTIFY is sent outside the
   * enqueuing transactions on purpose: Postgres serialises the commits of transactions that NOTIFY, so a NOTIFY
   * per bet would make every placement wait for the previous one's fsync.
   */
  kick(): void {
    this.wakeUp();
    if (this.notifyTimer || !this.running) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(this.database.db).catch(() => {});
    }, NOTIFY_COALESCE_MS);
  }

  /** Wakes this process's loop only. */
  private wakeUp(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Stops claiming, waits for in-flight deliveries, releases nothing (leases simply expire). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.notifyTimer);
    this.wakeUp();
    await this.loop;
    while (this.inFlight > 0) await new Promise<void>((r) => this.idle.add(r));
    await this.flush();
    await this.unlisten?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      const room = this.opts.concurrency - this.inFlight;
      let claimed: CallbackDelivery[] = [];
      if (room > 0) {
        try {
          await this.flush();
          claimed = await claimDue(this.database.db, this.owner, this.opts.leaseMs, room);
        } catch (err) {
          this.logger.error({ err }, 'outbox claim failed');
        }
      }
      for (const d of claimed) this.deliver(d);
      if (claimed.length === 0 || room - claimed.length <= 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            this.wake = undefined;
            resolve();
          }, this.opts.pollMs);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    }
  }

  private deliver(d: CallbackDelivery): void {
    this.inFlight++;
    this.attempt(d)
      .catch((err) => this.logger.error({ err, requestId: d.request_id }, 'delivery bookkeeping failed'))
      .finally(() => {
        this.inFlight--;
        if (this.inFlight === 0) {
          // only when the last delivery ends: stop() waits for all of them
          for (const r of this.idle) r();
          this.idle.clear();
        }
        this.wakeUp();
      });
  }

  private async attempt(d: CallbackDelivery): Promise<void> {
    let result: Awaited<ReturnType<CallbackSender['send']>>;
    try {
      const target = await this.targets.get(d.white_label_id);
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
      this.pendingDone.push({ id: d.id, status: result.status });
      await this.flush();
      return;
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

  /** Writes successful deliveries in batches (one UPDATE per batch, not one per callback). */
  private async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pendingDone.length === 0) return;
    const batch = this.pendingDone;
    this.pendingDone = [];
    this.flushing = markDelivered(this.database.db, this.owner, batch).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }
}
