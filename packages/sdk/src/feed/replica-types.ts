/**
 * The options, errors and events of a {@link FeedReplica} (the feed contract's client procedure), kept apart from the
 * replica's class in replica.ts.
 */
import type { BetRollbackEntry, MatchNewEntry, MatchUpdateEntry, SportEvent } from '@bookie/contracts';
import type { Dispatcher } from 'undici';
import type { ReplicaStore } from './stores.js';

/** TLS material for mutual TLS (the feed contract, "Authentication"): PEM strings or buffers. */
export interface FeedTlsOptions {
  /** Client certificate (PEM). */
  cert?: string | Buffer;
  /** Client private key (PEM). */
  key?: string | Buffer;
  /** CA that signed the server's certificate (PEM); default: the system's. */
  ca?: string | Buffer;
  /** Server name to verify, when it differs from the URL's host. */
  servername?: string;
}

/** Options of {@link FeedReplica}. */
export interface FeedReplicaOptions {
  /**
   * The feed's base URL (`{feed_url}`), e.g. `https://feed.example.com`. Omit it for an in-process replica that its
   * owner feeds with {@link FeedReplica.reset} and {@link FeedReplica.applyLine}.
   */
  baseUrl?: string;
  /** Returns a bearer token for each request (e.g. an OAuth client-credentials cache, the partner tokens rule). */
  token?: () => Promise<string>;
  /** Mutual TLS options (the feed contract, "Authentication"). */
  tls?: FeedTlsOptions;
  /** An undici dispatcher to use instead of one built from `tls`. */
  dispatcher?: Dispatcher;
  /** Where state and version are persisted together (default: in memory). */
  store?: ReplicaStore;
  /** `heartbeat_interval` asked of `/log`, in seconds (default 5, the feed contract, "Limits"). */
  heartbeatIntervalS?: number;
  /** Reconnect after this many missed heartbeats (default 2, the feed contract, "Events"). */
  missedHeartbeats?: number;
  /** Reconnect backoff: first delay and cap, in ms (defaults 250 and 30,000); each delay is jittered ±50 %. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** 409 loop guard: more than `max` 409s within `windowMs` wait the backoff cap before the next resync (3, 60,000). */
  conflictGuard?: { max?: number; windowMs?: number };
  /** How often a changed state is saved to the store, in ms (default 5,000; 0 = only after a resync and at stop). */
  checkpointIntervalMs?: number;
}

/** A 409 from `/log`: the saved version is gone (retention) or ahead of the head (the feed log rule). */
export class FeedConflictError extends Error {
  constructor(readonly lastVersion: bigint) {
    super(`feed: /log answered 409 for Last-Version ${lastVersion}`);
    this.name = 'FeedConflictError';
  }
}

/** A feed response other than the expected one. */
export class FeedHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly path: string,
  ) {
    super(`feed: ${path} answered ${status}: ${body.slice(0, 200)}`);
    this.name = 'FeedHttpError';
  }
}

/** Events of a {@link FeedReplica}, with their arguments. */
export interface FeedReplicaEvents {
  /** A `match_new` was applied; `event` is the stored snapshot. */
  match_new: [entry: MatchNewEntry, event: SportEvent];
  /** A `match_update` was applied; `event` is the stored snapshot after it (undefined when unknown). */
  match_update: [entry: MatchUpdateEntry, event: SportEvent | undefined];
  /** A `bet_rollback` arrived. */
  bet_rollback: [entry: BetRollbackEntry];
  /** The replica finished a full resync (step 1) and swapped the new state in. */
  resync: [version: bigint];
  /** `/log` answered 200: the replica follows the feed. */
  connected: [];
  /** The log stream ended, failed or was given up by the heartbeat watchdog. */
  disconnected: [reason: string];
  /** The backlog is replayed (first heartbeat after connecting, the feed heartbeat line rule). */
  caught_up: [version: bigint];
  /** A recoverable problem (the replica retries); never thrown. */
  warning: [err: unknown];
}
