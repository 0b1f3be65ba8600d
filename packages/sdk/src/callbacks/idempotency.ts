/**
 * Idempotent callbacks (spec 01 "Events": "the partner identifies a repeated delivery by request_id and must answer
 * it with the same status code and content as the first answer"; DECISIONS D7).
 *
 * An {@link IdempotencyStore} runs a callback's work at most once per `request_id`:
 * - first delivery: claim the key, run `apply`, store its answer; all in one unit (for the SQL store: one database
 *   transaction, which the handler's own writes join through `tx`), so the effect and the stored answer commit
 *   together or not at all;
 * - a repeat with the same fingerprint (same path and body bytes): the stored answer, byte-identical, and nothing
 *   runs;
 * - a repeat with another fingerprint: `conflict`, and nothing runs;
 * - `apply` throws: the claim is released (and the SQL transaction rolled back), so a retry runs again;
 * - concurrent deliveries of one key: the second waits for the first, then replays (or runs, if the first threw).
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';

/** A stored callback answer: replayed exactly on every repeat of its `request_id`. */
export interface StoredAnswer {
  /** HTTP status, e.g. 204 or 400. */
  status: number;
  /** Content-Type of `body`, `""` when there is no body. */
  contentType: string;
  /** The body, exactly as first sent (`""` for 204). */
  body: string;
}

/** What {@link IdempotencyStore.execute} did. */
export type IdempotencyOutcome =
  | { kind: 'applied'; answer: StoredAnswer }
  | { kind: 'replayed'; answer: StoredAnswer }
  | { kind: 'conflict' };

/**
 * Runs callback work at most once per key (see the module comment). `Tx` is the unit of work handed to `apply`:
 * a database transaction for the SQL store, `undefined` for the memory store.
 */
export interface IdempotencyStore<Tx = unknown> {
  /**
   * @param key - the `request_id`.
   * @param fingerprint - identifies the request's content ({@link requestFingerprint}); another fingerprint under a
   *   stored key is a conflict.
   * @param apply - the work; returns the answer to store. A throw propagates and releases the claim.
   */
  execute(
    key: string,
    fingerprint: string,
    apply: (tx: Tx) => Promise<StoredAnswer>,
  ): Promise<IdempotencyOutcome>;
}

/** The fingerprint of a callback request: SHA-256 (hex) of its path and exact body bytes. */
export function requestFingerprint(path: string, body: string | Uint8Array): string {
  return createHash('sha256').update(path).update('\n').update(body).digest('hex');
}
