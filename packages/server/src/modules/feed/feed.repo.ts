import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** One stored log entry: its version and serialised JSON line. */
export interface LogRow {
  v: bigint;
  line: string;
}

/** The log's bounds: the head (highest committed version) and the retention floor (DECISIONS D22). */
export interface LogBounds {
  head: bigint;
  floor: bigint;
}

/** Log entries with `v > after`, ascending, at most `limit`. */
export async function readLogPage(
  ex: Executor,
  after: bigint,
  limit: number,
  maxBytes?: number,
): Promise<LogRow[]> {
  if (maxBytes === undefined) {
    return ex
      .selectFrom('feed_log')
      .select(['v', 'line'])
      .where('v', '>', after)
      .orderBy('v')
      .limit(limit)
      .execute();
  }
  // at most `limit` entries and about `maxBytes` of lines (always the first entry, however large): the rows past the
  // budget stay in the database instead of in this process's memory
  const r = await sql<LogRow>`
    SELECT v, line FROM (
      SELECT v, line, sum(octet_length(line)) OVER (ORDER BY v) - octet_length(line) AS before_bytes
      FROM (SELECT v, line FROM feed_log WHERE v > ${after}::int8 ORDER BY v LIMIT ${limit}) page
    ) counted
    WHERE before_bytes < ${maxBytes}
    ORDER BY v`.execute(ex);
  return r.rows;
}

/** The retention floor: the highest version removed by retention (0 when nothing was). */
export async function readFloor(ex: Executor): Promise<bigint> {
  const r = await ex
    .selectFrom('feed_state')
    .select('retention_floor')
    .where('id', '=', 1)
    .executeTakeFirst();
  return r?.retention_floor ?? 0n;
}

/**
 * The head and floor. The head is the highest committed version: the last log entry, or the floor when
 * retention removed every entry.
 */
export async function readBounds(ex: Executor): Promise<LogBounds> {
  const r = await sql<{ max: bigint | null; floor: bigint }>`
    select (select max(v) from feed_log) as max, retention_floor as floor from feed_state where id = 1`.execute(
    ex,
  );
  const row = r.rows[0];
  const floor = row?.floor ?? 0n;
  const max = row?.max ?? 0n;
  return { head: max > floor ? max : floor, floor };
}

/** Snapshot lines with `id > afterId` (all when null), by id, at most `limit`. */
export async function readSnapshotPage(
  ex: Executor,
  afterId: string | null,
  limit: number,
): Promise<Array<{ id: string; snapshot: string }>> {
  let q = ex.selectFrom('sport_event').select(['id', 'snapshot']).orderBy('id').limit(limit);
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.execute();
}

/** The highest version of a log entry created before `before`, or undefined. */
export async function versionCreatedBefore(ex: Executor, before: Date): Promise<bigint | undefined> {
  const r = await sql<{ v: bigint | null }>`
    select max(v) as v from feed_log where created_at < ${before}`.execute(ex);
  return r.rows[0]?.v ?? undefined;
}

/** Raises the retention floor to `floor` (never lowers it). */
export async function raiseFloor(ex: Executor, floor: bigint): Promise<void> {
  await sql`update feed_state set retention_floor = greatest(retention_floor, ${floor}::int8),
    retention_ran_at = now() where id = 1`.execute(ex);
}

/** Deletes up to `limit` log entries with `v <= upTo`; returns how many. */
export async function deleteLogUpTo(ex: Executor, upTo: bigint, limit: number): Promise<number> {
  const r = await sql`delete from feed_log where v in (
      select v from feed_log where v <= ${upTo}::int8 order by v limit ${limit}::int4)`.execute(ex);
  return Number(r.numAffectedRows ?? 0n);
}

/** Deletes snapshots of events finished before `before`; returns how many. */
export async function deleteFinishedSnapshots(ex: Executor, before: Date): Promise<number> {
  const r = await ex.deleteFrom('sport_event').where('finished_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
