/**
 * Idempotent callbacks (the callback contract, "Events": "the partner identifies a repeated delivery by request_id and must answer
 * it with the same status code and content as the first answer"; the callback requests rule).
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
 * A store may also run a callback as one {@link ClaimingStatement} ({@link IdempotencyStore.executeStatement}): the
 * claim, the effect and the stored answer in a single SQL statement, with the same guarantees and one database round
 * trip instead of a transaction of several (docs/adr/0013-wallet-round-trips.md).
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
 * A callback done as one SQL statement (Postgres syntax), which the store completes with the claim of the request
 * and its stored 204 answer. The store writes it as
 *
 * ```sql
 * WITH <decide>,
 *   claimed AS (INSERT …the claim of $1 with the answer 204… WHERE <claimWhen> ON CONFLICT DO NOTHING RETURNING …),
 *   <effects>
 * SELECT <claimed?>, <the stored answer, as one JSON value>, <columns>
 * FROM (SELECT 1) AS one LEFT JOIN <table> AS stored ON stored.request_id = $1
 * ```
 *
 * so the claim, the effect and the answer commit together or not at all (one statement is one transaction). The
 * names `stored` and `claimed` are the store's; `$1` is the request_id and `$2` the fingerprint, the statement's own
 * parameters are `$3`, `$4`, …
 */
export interface ClaimingStatement {
  /**
   * CTE definitions (`name AS (…)`, comma-separated, without `WITH`) that read the state and decide what to do; they
   * may lock rows (`FOR UPDATE`) and must not write.
   */
  decide: string;
  /**
   * A boolean SQL expression over the `decide` CTEs: true when the first delivery's answer is 204 (the request is
   * then claimed with that answer, and the effects run); false when it is a refusal.
   */
  claimWhen: string;
  /**
   * Data-modifying CTE definitions, written so that they change nothing unless `claimed` has a row (e.g. select
   * `FROM claimed` or test `EXISTS (SELECT 1 FROM claimed)`); `""` when the callback has no effect.
   */
  effects: string;
  /** The statement's own output: a select list over the CTEs, e.g. `(SELECT outcome FROM decision) AS outcome`. */
  columns: string;
  /** The values of `$3`, `$4`, … */
  params: readonly unknown[];
}

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

  /**
   * Optional: runs a callback as one {@link ClaimingStatement}, without a transaction around it. A request already
   * answered is replayed (or a conflict) and its statement changes nothing; otherwise `answer` maps the statement's
   * row (its `columns`, plus `claimed`: whether the claim was taken) to the first delivery's answer:
   * - 204 when `claimWhen` held: stored by the statement itself, with the effects;
   * - a refusal (any other status) when it did not: stored next, with no effect, unless a concurrent delivery
   *   answered first (its answer is then replayed);
   * - a throw: nothing stored (for a transient refusal); it propagates.
   *
   * @param key - the `request_id`.
   * @param fingerprint - see {@link IdempotencyStore.execute}.
   */
  executeStatement?(
    key: string,
    fingerprint: string,
    statement: ClaimingStatement,
    answer: (row: Record<string, unknown>) => StoredAnswer,
  ): Promise<IdempotencyOutcome>;
}

/** The fingerprint of a callback request: SHA-256 (hex) of its path and exact body bytes. */
export function requestFingerprint(path: string, body: string | Uint8Array): string {
  return createHash('sha256').update(path).update('\n').update(body).digest('hex');
}
