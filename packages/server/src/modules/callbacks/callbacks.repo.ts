import { PLANNED_EACH_RUN } from '@bookie/storage';
import { CompiledQuery, type Selectable, sql } from 'kysely';
import { pgArray } from '../../db/pg-array.js';
import type { CallbackDeliveryTable } from '../../db/schema.js';
import { type Executor, sendQuery, sendWrite } from '../../db/transaction.js';

/** A row of the outbox. */
export type CallbackDelivery = Selectable<CallbackDeliveryTable>;

/**
 * An asynchronous callback a use case puts in the outbox (the body is already serialised: these bytes are sent on
 * every attempt). The synchronous `/bet/place` is written by {@link recordSyncDeliveries}, with its outcome.
 */
export interface NewCallbackDelivery {
  requestId: string;
  whiteLabelId: string;
  betId: string;
  path: string;
  body: string;
  foreignParams: string;
}

/**
 * The bodies of a batch, in order, from its fifth parameter: a JSON array with an element per body
 * ({@link bodiesDocument}). An object element is the body itself, whose text is kept as written (a `json` value keeps
 * its input text, and an element of it is that text's slice); a string element is a body that went quoted, unquoted.
 */
const BODIES = `ARRAY(SELECT CASE WHEN json_typeof(b) = 'string' THEN b #>> '{}' ELSE b::text END
    FROM json_array_elements($5::json) WITH ORDINALITY AS j(b, i) ORDER BY i)`;

/** Whether a body goes into {@link bodiesDocument} as it is: a JSON object's text with no `\u` escape. */
function asItIs(body: string): boolean {
  return body.charCodeAt(0) === 0x7b && body.charCodeAt(body.length - 1) === 0x7d && !body.includes('\\u');
}

/**
 * The JSON array of {@link BODIES}: a callback body is a JSON object's text (D7), joined into the array as it is,
 * where a quoted literal would escape every quote of it. A body that is not an object's text, or that has a `\u`
 * escape (Postgres's `json` checks those, and refuses a lone surrogate that a text column takes), goes as a JSON
 * string. A body that starts and ends like an object but is not JSON text fails the statement (no body is one).
 */
function bodiesDocument(bodies: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < bodies.length; i++) {
    const body = bodies[i] as string;
    if (i > 0) out += ',';
    out += asItIs(body) ? body : JSON.stringify(body);
  }
  return `${out}]`;
}

/**
 * The outbox's hot statements, fixed texts built once and run with `CompiledQuery.raw`: a batch goes as arrays
 * (`unnest`), so each text is one whatever the batch size and is prepared once per connection, and each returns only
 * the columns its caller uses.
 */
const INSERT_DELIVERIES = `
  INSERT INTO callback_delivery (request_id, white_label_id, bet_id, path, body, foreign_params, mode, lease_owner,
    lease_until, queued, born_leased)
  SELECT v.request_id, v.white_label_id, v.bet_id, v.path, v.body, v.foreign_params, 'async', $7::text,
    now() + ($8::int8 * interval '1 millisecond'), $7::text IS NULL, $7::text IS NOT NULL
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], ${BODIES}, $6::text[])
    AS v(request_id, white_label_id, bet_id, path, body, foreign_params)
  RETURNING id`;

/**
 * The claim. The ids to lease are collected into an array first (`ARRAY(…)`, run once as an init plan) and the
 * update finds them by primary key (`id = ANY(…)`, ADR 0055). Candidates are queued rows (`callback_delivery_due`;
 * a row born leased joins them only through {@link requeueBornLeased}). Only the head of each bet's pending queue is
 * eligible: its id is the least pending id of its bet (queued or born leased), a correlated `min()` whose only plan
 * is one probe of `callback_delivery_bet` per candidate, reading the status of the bet's rows up to its first
 * pending one (ADR 0063). The `NOT EXISTS` it replaces was planned as an anti-join, and on
 * statistics that make pending rows look rare (an outbox analyzed empty, or mostly delivered) the join became a
 * filter over every pending row for each candidate: O(pending) per claimed row, ~60,000 buffers per claim at 20,000
 * pending (ADR 0057). It is also planned at every run ({@link PLANNED_EACH_RUN}): a generic plan a connection cached
 * while the outbox was nearly empty keeps sequential scans once it is full. Returns the columns of a claimed delivery,
 * in the order of {@link ClaimedDelivery}. Parameters: the lease owner, the lease (ms), how many rows at most.
 * Exported for the test of its plan.
 */
export const CLAIM_DUE_SQL = `${PLANNED_EACH_RUN}
  UPDATE callback_delivery SET lease_owner = $1, lease_until = now() + ($2::int8 * interval '1 millisecond')
  WHERE id = ANY(ARRAY(
    SELECT d.id FROM callback_delivery d
    WHERE d.queued AND d.status = 'pending' AND d.mode = 'async' AND d.next_attempt_at <= now()
      AND (d.lease_until IS NULL OR d.lease_until < now())
      AND d.id = (
        SELECT min(e.id) FROM callback_delivery e WHERE e.bet_id = d.bet_id AND e.status = 'pending')
    ORDER BY d.next_attempt_at
    LIMIT $3
    FOR UPDATE SKIP LOCKED))
  RETURNING id, request_id, white_label_id, bet_id, path, body, foreign_params, attempts`;

/**
 * Records delivered rows. Planned at every run like the claim: a generic plan made on a nearly empty outbox joins the
 * batch to a sequential scan of the whole table and checks each row's successor with another (ADR 0057). For a row
 * born leased it changes no indexed column (`queued` stays false), so Postgres writes the new version on the same
 * page without touching an index (HOT, ADR 0063); a queued row leaves the claim's index.
 */
const MARK_DELIVERED = `${PLANNED_EACH_RUN}
  UPDATE callback_delivery d SET status = 'delivered', delivered_at = now(), last_attempt_at = now(),
    attempts = d.attempts + 1, last_status = v.status, last_error = NULL, lease_owner = NULL, lease_until = NULL,
    queued = false
  FROM unnest($1::int8[], $2::int4[]) AS v(id, status)
  WHERE d.id = v.id AND d.lease_owner = $3
  RETURNING EXISTS (SELECT 1 FROM callback_delivery e
    WHERE e.bet_id = d.bet_id AND e.status = 'pending' AND e.id > d.id) AS next`;

const RECORD_SYNC_DELIVERIES = `
  INSERT INTO callback_delivery AS d (request_id, white_label_id, bet_id, path, body, foreign_params, mode, status,
    attempts, last_status, last_error, last_attempt_at, delivered_at, next_attempt_at, created_at)
  SELECT v.request_id, v.white_label_id, v.bet_id, v.path, v.body, v.foreign_params, 'sync',
    CASE WHEN v.delivered THEN 'delivered' ELSE 'failed' END, v.attempts, v.status, v.error,
    now(), CASE WHEN v.delivered THEN now() END, v.created_at, v.created_at
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], ${BODIES}, $6::text[], $7::bool[], $8::int4[],
    $9::int4[], $10::text[], $11::timestamptz[])
    AS v(request_id, white_label_id, bet_id, path, body, foreign_params, delivered, attempts, status, error,
      created_at)
  ON CONFLICT (request_id) DO UPDATE SET status = excluded.status, attempts = excluded.attempts,
    last_status = excluded.last_status, last_error = excluded.last_error,
    last_attempt_at = excluded.last_attempt_at, delivered_at = excluded.delivered_at`;

/**
 * The columns every outbox statement takes of its rows, in the order the statements' first six parameters name them:
 * request_id, white_label_id, bet_id, path, body, foreign_params. Each is an array literal ({@link pgArray}) but the
 * bodies: they are JSON texts (D7), and go as one JSON array of them ({@link bodiesDocument}), where an array literal
 * would escape every quote of every body.
 */
function deliveryColumns(rows: readonly NewCallbackDelivery[]): string[] {
  const n = rows.length;
  const requestIds = new Array<string>(n);
  const whiteLabelIds = new Array<string>(n);
  const betIds = new Array<string>(n);
  const paths = new Array<string>(n);
  const bodies = new Array<string>(n);
  const foreignParams = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i] as NewCallbackDelivery;
    requestIds[i] = r.requestId;
    whiteLabelIds[i] = r.whiteLabelId;
    betIds[i] = r.betId;
    paths[i] = r.path;
    bodies[i] = r.body;
    foreignParams[i] = r.foreignParams;
  }
  return [
    pgArray(requestIds),
    pgArray(whiteLabelIds),
    pgArray(betIds),
    pgArray(paths),
    bodiesDocument(bodies),
    pgArray(foreignParams),
  ];
}

/**
 * Inserts outbox rows; call it inside the transaction of the change that causes them. With `lease`, the rows are
 * born leased to that owner (the dispatcher of the inserting process delivers them once the transaction commits, so
 * no claim is needed; if it dies first, the lease expires and any dispatcher claims them). Returns their ids, in the
 * order of `rows`.
 */
export async function insertDeliveries(
  tx: Executor,
  rows: readonly NewCallbackDelivery[],
  lease?: { owner: string; ms: number },
): Promise<bigint[]> {
  return (await sendDeliveries(tx, rows, lease)).ids;
}

/**
 * {@link insertDeliveries} sent without waiting inside a transaction (`sendQuery`): resolves once the insert is on its
 * way, to its ids' promise, so that the commit after it shares its round trip.
 */
export async function sendDeliveries(
  tx: Executor,
  rows: readonly NewCallbackDelivery[],
  lease?: { owner: string; ms: number },
): Promise<{ ids: Promise<bigint[]> }> {
  if (rows.length === 0) return { ids: Promise.resolve([]) };
  const sent = await sendQuery(
    tx,
    CompiledQuery.raw(INSERT_DELIVERIES, [
      ...deliveryColumns(rows),
      lease?.owner ?? null,
      lease ? lease.ms : null,
    ]),
    (out: Array<{ id: bigint }>) => out.map((r) => r.id),
  );
  return { ids: sent.rows };
}

/** What a dispatcher needs of a delivery it holds the lease of: what to send, and how many attempts failed before. */
export type ClaimedDelivery = Pick<
  CallbackDelivery,
  'id' | 'request_id' | 'white_label_id' | 'bet_id' | 'path' | 'body' | 'foreign_params' | 'attempts'
>;

/**
 * Claims up to `limit` due async deliveries with a lease, oldest due first, skipping rows other processes hold
 * (FOR UPDATE SKIP LOCKED). Only the head of each bet's pending queue is eligible, so callbacks of one bet
 * go out strictly in order (D10). The order is that of the index callback_delivery_due (due time; equal times in
 * index order), so the scan stops after `limit` eligible rows instead of sorting every due row (ADR 0014). One
 * statement, no transaction of its own: its cost estimate on an empty or never analyzed outbox passes
 * `jit_above_cost`, and the connections run with JIT compilation off (@bookie/storage's session options), where it
 * once took ~300 ms per claim (ADR 0063).
 */
export async function claimDue(
  db: Executor,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  return (await db.executeQuery<ClaimedDelivery>(CompiledQuery.raw(CLAIM_DUE_SQL, [owner, leaseMs, limit])))
    .rows;
}

/**
 * Marks deliveries done (status 2xx), if this owner still holds their lease, in one statement. Returns how many
 * rows it marked and how many of those have a later pending callback of the same bet (now claimable, D10).
 */
export async function markDelivered(
  db: Executor,
  owner: string,
  done: ReadonlyArray<{ id: bigint; status: number }>,
): Promise<{ updated: number; successors: number }> {
  if (done.length === 0) return { updated: 0, successors: 0 };
  const ids = new Array<string>(done.length);
  const statuses = new Array<number>(done.length);
  for (let i = 0; i < done.length; i++) {
    const x = done[i] as { id: bigint; status: number };
    ids[i] = String(x.id);
    statuses[i] = x.status;
  }
  const res = await db.executeQuery<{ next: boolean }>(
    CompiledQuery.raw(MARK_DELIVERED, [pgArray(ids), pgArray(statuses), owner]),
  );
  let successors = 0;
  for (const r of res.rows) if (r.next) successors++;
  return { updated: res.rows.length, successors };
}

/**
 * The recovery of born-leased rows whose process died before recording them. Such a row is not in the claim's
 * index (`queued` is false, so that marking it delivered is a HOT update, ADR 0063); this statement hands it to the
 * queue once its lease has expired. It reads the born-leased rows written in [mark, now() − `$1` ms) that are still
 * pending and not queued (`callback_delivery_born_leased`, a range of `created_at`, set at insert and never
 * changed), queues those whose lease expired (found by primary key, as the claim's rows), and moves the mark to the end of that range — never past a row whose
 * lease still runs, never back. `$1` is longer than any lease and any transaction that writes such rows (their `created_at` is
 * their transaction's start), so a row the range has passed was visible when it was read. One process at a time
 * (the mark is locked, SKIP LOCKED: another process's run finds nothing to do). Planned at every run, like the
 * claim. Returns how many rows it queued. Exported for the test of its plan.
 */
export const REQUEUE_BORN_LEASED_SQL = `${PLANNED_EACH_RUN}
  WITH m AS (
    SELECT through FROM callback_recovery_mark WHERE id = 1 FOR UPDATE SKIP LOCKED
  ), c AS MATERIALIZED (
    SELECT d.id, d.created_at, (d.lease_until IS NULL OR d.lease_until < now()) AS expired
    FROM callback_delivery d
    WHERE d.born_leased AND d.created_at >= (SELECT through FROM m)
      AND d.created_at < now() - ($1::int8 * interval '1 millisecond')
      AND d.status = 'pending' AND NOT d.queued
  ), r AS (
    UPDATE callback_delivery d SET queued = true
    WHERE d.id = ANY(ARRAY(SELECT c.id FROM c WHERE c.expired)) AND d.status = 'pending' AND NOT d.queued
    RETURNING d.id
  ), u AS (
    UPDATE callback_recovery_mark k SET through = greatest(k.through, least(
      now() - ($1::int8 * interval '1 millisecond'), (SELECT min(c.created_at) FROM c WHERE NOT c.expired)))
    WHERE k.id = 1 AND EXISTS (SELECT 1 FROM m)
    RETURNING k.through
  )
  SELECT (SELECT count(*) FROM r)::int4 AS requeued`;

/**
 * Hands born-leased rows whose lease expired to the dispatchers' queue ({@link REQUEUE_BORN_LEASED_SQL}): those
 * written more than `afterMs` ago (longer than any lease and any transaction that writes them). Returns how many.
 */
export async function requeueBornLeased(db: Executor, afterMs: number): Promise<number> {
  const r = await db.executeQuery<{ requeued: number }>(
    CompiledQuery.raw(REQUEUE_BORN_LEASED_SQL, [Math.round(afterMs)]),
  );
  return r.rows[0]?.requeued ?? 0;
}

/** Records a failed attempt and schedules the next one `delayMs` from now (D10), in the dispatchers' queue. */
export async function markAttemptFailed(
  db: Executor,
  owner: string,
  id: bigint,
  failure: { status: number | null; error: string; delayMs: number },
): Promise<void> {
  await db
    .updateTable('callback_delivery')
    .set({
      attempts: sql`attempts + 1`,
      last_status: failure.status,
      last_error: failure.error.slice(0, 2000),
      last_attempt_at: sql`now()`,
      next_attempt_at: sql`now() + (${Math.round(failure.delayMs)}::int8 * interval '1 millisecond')`,
      lease_owner: null,
      lease_until: null,
      // a row born leased that failed joins the queue: any dispatcher retries it when it is due
      queued: true,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Marks an optional callback the partner does not implement (D45: it answered 404, 405 or 501) `unsupported`, if
 * this owner still holds its lease: it leaves the bet's queue, so the bet's next callback becomes due. Returns
 * whether it was recorded (false: the lease was lost) and whether the bet has a later pending callback.
 */
export async function markUnsupported(
  db: Executor,
  owner: string,
  id: bigint,
  failure: { status: number; error: string },
): Promise<{ recorded: boolean; next: boolean }> {
  const res = await sql<{ next: boolean }>`
    UPDATE callback_delivery d SET status = 'unsupported', attempts = d.attempts + 1, last_status = ${failure.status},
      last_error = ${failure.error.slice(0, 2000)}, last_attempt_at = now(), lease_owner = NULL, lease_until = NULL,
      queued = false
    WHERE d.id = ${String(id)}::int8 AND d.lease_owner = ${owner}
    RETURNING EXISTS (SELECT 1 FROM callback_delivery e
      WHERE e.bet_id = d.bet_id AND e.status = 'pending' AND e.id > d.id) AS next`.execute(db);
  return { recorded: res.rows.length > 0, next: res.rows.some((r) => r.next) };
}

/**
 * Withdraws the pending callbacks of a bet on `paths` queued after delivery `afterId`: they are not sent (marked
 * `unsupported` with `reason` as the last error, visible to operators and re-sendable by hand). They are behind
 * `afterId` in the bet's queue, so none is in flight. Returns how many.
 */
export async function withdrawPendingCallbacks(
  db: Executor,
  betId: string,
  paths: readonly string[],
  afterId: bigint,
  reason: string,
): Promise<number> {
  const r = await db
    .updateTable('callback_delivery')
    .set({
      status: 'unsupported',
      last_error: reason.slice(0, 2000),
      lease_owner: null,
      lease_until: null,
      queued: false,
    })
    .where('bet_id', '=', betId)
    .where('status', '=', 'pending')
    .where('path', 'in', paths)
    .where('id', '>', afterId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Whether the last delivery on `path` of a bet before `beforeId` was delivered (answered 2xx). */
export async function lastDeliveredBefore(
  db: Executor,
  betId: string,
  path: string,
  beforeId: bigint,
): Promise<boolean> {
  const r = await db
    .selectFrom('callback_delivery')
    .select('status')
    .where('bet_id', '=', betId)
    .where('path', '=', path)
    .where('id', '<', beforeId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.status === 'delivered';
}

/** The outcome of a synchronous delivery's (/bet/place) attempt series. */
export interface SyncOutcome {
  delivered: boolean;
  attempts: number;
  status: number | null;
  error: string | null;
}

/**
 * A synchronous delivery (/bet/place) to write with its outcome: the bytes that were sent, and when the callback was
 * formed (the row's `created_at`).
 */
export type SyncDelivery = NewCallbackDelivery & SyncOutcome & { createdAt: Date };

/**
 * Writes synchronous deliveries (/bet/place) once, with their outcome, in one statement of fixed text (prepared
 * once): delivered or failed, never pending (placement sent them itself). A row of the same request_id written
 * before (the recovery of an interrupted placement, racing the placement itself) takes the later outcome.
 */
export async function recordSyncDeliveries(db: Executor, rows: readonly SyncDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  const n = rows.length;
  const delivered = new Array<boolean>(n);
  const attempts = new Array<number>(n);
  const statuses = new Array<number | null>(n);
  const errors = new Array<string | null>(n);
  const createdAts = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i] as SyncDelivery;
    delivered[i] = r.delivered;
    attempts[i] = r.attempts;
    statuses[i] = r.status;
    errors[i] = r.error == null ? null : r.error.slice(0, 2000);
    createdAts[i] = r.createdAt.toISOString();
  }
  await sendWrite(
    db,
    CompiledQuery.raw(RECORD_SYNC_DELIVERIES, [
      ...deliveryColumns(rows),
      pgArray(delivered),
      pgArray(attempts),
      pgArray(statuses),
      pgArray(errors),
      pgArray(createdAts),
    ]),
  );
}

/**
 * Marks the pending synchronous deliveries of a bet failed with `error` (the recovery of a placement held before
 * /bet/place rows were written once with their outcome).
 */
export async function failPendingSyncDeliveries(db: Executor, betId: string, error: string): Promise<void> {
  await db
    .updateTable('callback_delivery')
    .set({ status: 'failed', last_error: error, last_attempt_at: sql`now()` })
    .where('bet_id', '=', betId)
    .where('mode', '=', 'sync')
    .where('status', '=', 'pending')
    .execute();
}

/** Filters of the operator listing. */
export interface DeliveryFilter {
  whiteLabelId?: string;
  betId?: string;
  status?: 'pending' | 'delivered' | 'failed' | 'unsupported';
  /** Only rows with at least one failed attempt. */
  failing?: boolean;
  /** Rows with id below this (paging, newest first). */
  beforeId?: bigint;
  limit: number;
}

/**
 * Lists deliveries, newest first. Pending ones are read as two parts, each through its partial index — the queued
 * rows, and the born-leased rows not yet recorded (all written since the recovery's mark) — since no index names
 * `status` (ADR 0063): a scan of the outbox by id would read every callback ever delivered to find none pending.
 * The two parts are one statement (`UNION ALL`), so one snapshot: a born-leased row that the recovery queues between
 * two reads would otherwise be in neither.
 */
export async function listDeliveries(db: Executor, f: DeliveryFilter): Promise<CallbackDelivery[]> {
  const query = () => {
    let q = db.selectFrom('callback_delivery').selectAll();
    if (f.whiteLabelId) q = q.where('white_label_id', '=', f.whiteLabelId);
    if (f.betId) q = q.where('bet_id', '=', f.betId);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.failing) q = q.where('last_error', 'is not', null);
    if (f.beforeId !== undefined) q = q.where('id', '<', f.beforeId);
    return q;
  };
  if (f.status !== 'pending') return query().orderBy('id', 'desc').limit(f.limit).execute();
  const bornLeased = query()
    .where('born_leased', '=', true)
    .where('queued', '=', false)
    .where('created_at', '>=', (eb) => eb.selectFrom('callback_recovery_mark').select('through'));
  return query()
    .where('queued', '=', true)
    .unionAll(bornLeased)
    .orderBy('id', 'desc')
    .limit(f.limit)
    .execute();
}

/** One delivery by its id or its request_id. */
export async function findDelivery(db: Executor, key: string): Promise<CallbackDelivery | undefined> {
  const q = db.selectFrom('callback_delivery').selectAll();
  if (/^\d+$/.test(key)) return q.where('id', '=', BigInt(key)).executeTakeFirst();
  if (/^[0-9a-f-]{36}$/i.test(key)) return q.where('request_id', '=', key).executeTakeFirst();
  return undefined;
}

/**
 * Makes a pending delivery due now (operator "retry now"); an `unsupported` one (D45) becomes pending again.
 * Returns whether a row changed.
 */
export async function makeDueNow(db: Executor, id: bigint): Promise<boolean> {
  const r = await db
    .updateTable('callback_delivery')
    .set({
      status: 'pending',
      next_attempt_at: sql`now()`,
      lease_owner: null,
      lease_until: null,
      queued: sql<boolean>`mode = 'async'`,
    })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'unsupported'])
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Counts by status, for readiness and reports. */
export async function countByStatus(db: Executor): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('callback_delivery')
    .select(['status', sql<string>`count(*)::text`.as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** The channel that wakes the outbox dispatchers of every process (a doorbell; the outbox table is the truth). */
export const OUTBOX_CHANNEL = 'bookie_outbox';

/** Rings the outbox doorbell: every process listening on {@link OUTBOX_CHANNEL} wakes its dispatcher. */
export async function notifyOutbox(db: Executor, payload = ''): Promise<void> {
  await sql`select pg_notify(${OUTBOX_CHANNEL}, ${payload})`.execute(db);
}

/** Where the outbox's retention goes on from: the highest outbox id it has examined (0 before its first run). */
export async function readRetentionMark(db: Executor): Promise<bigint> {
  const r = await db
    .selectFrom('callback_retention_mark')
    .select('through_id')
    .where('id', '=', 1)
    .executeTakeFirst();
  return r ? BigInt(r.through_id) : 0n;
}

/** What one step of {@link pruneDeliveredStep} did. */
export interface PruneStep {
  /** Outbox rows read after the mark (at most the step's limit). */
  examined: number;
  /** Rows removed. */
  deleted: number;
  /** The mark after the step: every row at or below it was older than the retention when examined. */
  throughId: bigint;
  /** The step reached a row younger than the retention, or the end of the outbox: nothing more to do this run. */
  done: boolean;
}

/**
 * One step of the outbox's retention, one statement: reads up to `limit` rows after the mark `afterId` in id order;
 * of those before the first one created at or after `olderThan`, removes the `delivered` ones whose path is in
 * `paths`, and moves the mark past them. Rows not delivered (pending, failed, unsupported) and other paths stay.
 * The mark moves in the same statement as the removal (and only forward), so a step that is rolled back moves
 * nothing.
 */
export async function pruneDeliveredStep(
  db: Executor,
  afterId: bigint,
  olderThan: Date,
  paths: readonly string[],
  limit: number,
): Promise<PruneStep> {
  const r = await sql<{ examined: number; deleted: number; through: string | null; young: number }>`
    with batch as (
      select id, created_at, status, path from callback_delivery
      where id > ${afterId.toString()}::int8 order by id limit ${limit}
    ),
    edge as (
      select coalesce((select min(id) - 1 from batch where created_at >= ${olderThan}),
                      (select max(id) from batch)) as through
    ),
    gone as (
      delete from callback_delivery d using batch b, edge e
      where d.id = b.id and b.id <= e.through and b.status = 'delivered' and b.path = any(${pgArray(paths)}::text[])
      returning d.id
    ),
    moved as (
      update callback_retention_mark m set through_id = e.through from edge e
      where m.id = 1 and e.through > m.through_id
      returning m.through_id
    )
    select (select count(*) from batch)::int4 as examined, (select count(*) from gone)::int4 as deleted,
      (select through_id from moved)::text as through,
      (select count(*) from batch where created_at >= ${olderThan})::int4 as young`.execute(db);
  const row = r.rows[0] as { examined: number; deleted: number; through: string | null; young: number };
  return {
    examined: row.examined,
    deleted: row.deleted,
    throughId: row.through === null ? afterId : BigInt(row.through),
    done: row.young > 0 || row.examined < limit,
  };
}
