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

/** A log row to append. */
export interface NewLogRow {
  v: bigint;
  sport_event_id: string;
  type: 'match_new' | 'match_update' | 'bet_rollback';
  line: string;
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

/** Draws `n` versions from the sequence, ascending. Call only while holding the writer lock. */
export async function nextVersions(tx: Executor, n: number): Promise<bigint[]> {
  if (n === 1) {
    const r = await sql<{ v: bigint }>`select nextval('feed_version_seq') as v`.execute(tx);
    return [r.rows[0]!.v];
  }
  const r = await sql<{ v: bigint }>`
    select nextval('feed_version_seq') as v from generate_series(1, ${n}::int4)`.execute(tx);
  return r.rows.map((x) => x.v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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

/** Appends log rows (one multi-row insert per 500 rows). */
export async function insertLogRows(tx: Executor, rows: NewLogRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insertInto('feed_log')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** Inserts or replaces snapshot rows. */
export async function upsertSnapshots(tx: Executor, rows: SnapshotRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insertInto('sport_event')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          version: eb.ref('excluded.version'),
          fixture_status: eb.ref('excluded.fixture_status'),
          snapshot: eb.ref('excluded.snapshot'),
          finished_at: eb.ref('excluded.finished_at'),
          updated_at: sql`now()`,
        })),
      )
      .execute();
  }
}

/** Queues the wake-up of every feed node; Postgres delivers it at commit. */
export async function notifyLog(tx: Executor, version: bigint): Promise<void> {
  await sql`select pg_notify(${LOG_CHANNEL}, ${version.toString()})`.execute(tx);
}
