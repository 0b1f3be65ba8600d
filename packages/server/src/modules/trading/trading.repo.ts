import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/**
 * Advisory lock key of the one trading writer (DECISIONS D21): every trading transaction takes it before drawing
 * versions, so versions ascend in commit order. ASCII "bk:feed" as an int8.
 */
export const WRITER_LOCK_KEY = 0x626b3a66656564n;

/** NOTIFY channel that wakes every feed node after a commit; the payload is the highest new version. */
export const LOG_CHANNEL = 'bookie_log';

/** A stored snapshot: its JSON text and version. */
export interface StoredSnapshot {
  snapshot: string;
  version: bigint;
  finishedAt: Date | null;
}

/** A snapshot row to write. */
export interface SnapshotRow {
  id: string;
  version: bigint;
  fixture_status: number;
  snapshot: string;
  finished_at: Date | null;
}

/** Takes the writer's transaction-level advisory lock (released at commit or rollback). */
export async function lockWriter(tx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(WRITER_LOCK_KEY.toString())}::int8)`.execute(tx);
}

/** Loads one event's snapshot, or undefined. */
export async function loadSnapshot(tx: Executor, id: string): Promise<StoredSnapshot | undefined> {
  const row = await tx
    .selectFrom('sport_event')
    .select(['snapshot', 'version', 'finished_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { snapshot: row.snapshot, version: row.version, finishedAt: row.finished_at } : undefined;
}

/** A log entry to append: the version is drawn when it is written. */
export interface NewLogEntry {
  sport_event_id: string;
  type: 'match_new' | 'match_update' | 'bet_rollback';
  /** The entry's JSON after its `"v"` field, from the comma on: `,"sport_event_id":…}`. */
  rest: string;
}

/**
 * Appends log entries in one statement: draws one version per entry from the sequence (ascending, in the order
 * given), writes each line as `{"v":"<version>"` + `rest`, and returns the versions. Call only while holding the
 * writer lock, so that versions ascend in commit order (D21).
 */
export async function appendLog(tx: Executor, entries: readonly NewLogEntry[]): Promise<bigint[]> {
  if (entries.length === 0) return [];
  const res = await sql<{ v: bigint }>`
    WITH drawn AS (SELECT nextval('feed_version_seq') AS v FROM generate_series(1, ${entries.length}::int4)),
      numbered AS (SELECT v, row_number() OVER (ORDER BY v) AS i FROM drawn),
      appended AS (
        INSERT INTO feed_log (v, sport_event_id, type, line)
        SELECT n.v, e.sport_event_id, e.type, '{"v":"' || n.v || '"' || e.rest
        FROM numbered n
        JOIN unnest(${entries.map((e) => e.sport_event_id)}::text[], ${entries.map((e) => e.type)}::text[],
          ${entries.map((e) => e.rest)}::text[]) WITH ORDINALITY AS e(sport_event_id, type, rest, i) ON e.i = n.i
        RETURNING v)
    SELECT v FROM appended ORDER BY v`.execute(tx);
  return res.rows.map((r) => r.v);
}

/**
 * Inserts or replaces snapshot rows. The new versions are announced after commit by {@link notifyLog}, never
 * inside the transaction: a NOTIFY takes a database-wide lock at commit.
 */
export async function writeSnapshots(tx: Executor, rows: readonly SnapshotRow[]): Promise<void> {
  await sql`
      INSERT INTO sport_event (id, version, fixture_status, snapshot, finished_at)
      SELECT * FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.version.toString())}::int8[],
        ${rows.map((r) => r.fixture_status)}::int4[], ${rows.map((r) => r.snapshot)}::text[],
        ${rows.map((r) => r.finished_at)}::timestamptz[])
      ON CONFLICT (id) DO UPDATE SET version = excluded.version, fixture_status = excluded.fixture_status,
        snapshot = excluded.snapshot, finished_at = excluded.finished_at, updated_at = now()`.execute(tx);
}

/**
 * Wakes every feed node's fan-out (`LISTEN bookie_log`) after a trading commit; the payload is the highest new
 * version. Run outside any transaction (a lost doorbell only delays the other processes to their next poll).
 */
export async function notifyLog(db: Executor, version: bigint): Promise<void> {
  await sql`select pg_notify(${LOG_CHANNEL}, ${version.toString()})`.execute(db);
}

/** The book's sport events, most recently changed first (at most `limit`), as stored. */
export async function listSnapshots(
  db: Executor,
  opts: { limit: number; status?: number },
): Promise<Array<{ id: string; version: bigint; snapshot: string }>> {
  let q = db
    .selectFrom('sport_event')
    .select(['id', 'version', 'snapshot'])
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(opts.limit);
  if (opts.status !== undefined) q = q.where('fixture_status', '=', opts.status);
  return q.execute();
}
