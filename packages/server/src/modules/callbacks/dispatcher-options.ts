import type { OptionalCallback } from '@bookie/contracts';
import type { Executor } from '../../db/transaction.js';
import type { ClaimedDelivery } from './callbacks.repo.js';

/**
 * A delivered callback waits at most this many ms to be recorded with the others answered meanwhile, unless
 * `claimBatch` of them are already waiting: one UPDATE (and commit) per batch, not per answer (ADR 0055).
 */
export const FLUSH_COALESCE_MS = 5;

/**
 * A born-leased row is handed to the queue by the recovery once it was written more than its lease and this many ms
 * ago (ADR 0063): the margin bounds how long the transaction that wrote it may take to commit.
 */
export const BORN_LEASED_GRACE_MS = 10_000;

/** At most one cross-process NOTIFY per this many ms (see {@link CallbackDispatcher.kick}). */
export const NOTIFY_COALESCE_MS = 50;

/** Tuning of the dispatcher. */
export interface DispatcherOptions {
  /** Deliveries in flight at once (across bets; one per bet at a time). */
  concurrency: number;
  /** How long a claim is held before another process may take the row (ms). */
  leaseMs: number;
  /** Poll interval when nothing wakes it (ms): the latest a due retry or an expired lease is claimed. */
  pollMs: number;
  /**
   * How long after its lease a born-leased row its dispatcher did not record is handed to the queue (ms, default
   * {@link BORN_LEASED_GRACE_MS}); at least as long as a transaction that writes such rows may take to commit.
   */
  bornLeasedGraceMs?: number;
  /**
   * While deliveries are in flight or waiting, claim again only once at least this many more can be held (default a
   * quarter of `concurrency`): one claim per that many deliveries under load instead of one per delivery (ADR 0014).
   */
  claimBatch?: number;
  /**
   * Claimed deliveries held ready beyond the `concurrency` in flight (default `concurrency`), sent as slots free: the
   * next claim runs while the window is still full instead of after it drained (ADR 0055). Each is sent only while
   * its lease outlasts the sender's timeout; one that waited longer is left to its lease and claimed again.
   */
  prefetch?: number;
  /** Identifies this process's leases. */
  owner?: string;
  random?: () => number;
  /** Delay before the next attempt after `failedAttempts` failures; default the D10 ladder with jitter. */
  retryDelay?: (failedAttempts: number) => number;
  /**
   * Wake the other processes' dispatchers with a NOTIFY after commit (default true); false: they find the work at
   * their next poll.
   */
  doorbell?: boolean;
  /** Learning optional callbacks from answers, and what an unsupported one undoes; without it a 404 is only recorded. */
  optional?: OptionalCallbackHooks;
  /**
   * Called when the partner answers a bet's callback with an error whose code ends the player's session
   * (`auth_session_unknown`, `auth_credentials_expired`: the sessions rule); the delivery is retried as usual.
   */
  onSessionEnding?: (delivery: ClaimedDelivery) => Promise<void>;
}

/**
 * What the dispatcher does when a partner answers an optional callback (the optional callbacks rule): record what it
 * learnt of the white label, and undo, in the same transaction, what relied on a callback that proves unsupported.
 */
export interface OptionalCallbackHooks {
  /** Records what an answer taught of a white label's optional callback, inside `tx`; true when it changed. */
  learn(
    tx: Executor,
    learnt: {
      whiteLabelId: string;
      callback: OptionalCallback;
      learnt: 'supported' | 'unsupported';
      status: number;
      at: Date;
    },
  ): Promise<boolean>;
  /**
   * Per callback path: what to undo when a delivery of it proves unsupported, in the transaction that records it
   * (e.g. reverse an accepted cash-out whose payment cannot be delivered). It may answer what to do once that
   * transaction committed (tell live streams, wake workers); a failure there is logged.
   */
  onUnsupported?: Partial<Record<string, UnsupportedCallbackHook>>;
}

/** What an unsupported optional callback undoes, in `tx`; it may answer what to run once `tx` committed. */
export type UnsupportedCallbackHook = (
  tx: Executor,
  delivery: ClaimedDelivery,
) => Promise<void> | Promise<(() => void) | undefined>;

/** Counters of a dispatcher since start (the settlement bench reports claims per callback). */
export interface DispatcherStats {
  /** Claim statements run. */
  claims: number;
  /** Milliseconds spent in claim statements (wall clock, from sending to the answer). */
  claimMs: number;
  /** Rows those claims leased. */
  claimed: number;
  /** Attempts answered 2xx. */
  delivered: number;
  /** Attempts that failed (rescheduled). */
  failed: number;
  /** markDelivered statements run. */
  flushes: number;
  /** Milliseconds spent in markDelivered statements (wall clock). */
  flushMs: number;
  /** Claimed deliveries left unsent because they waited until their lease no longer outlasted an attempt. */
  expired: number;
}
