import type { ColumnType, Generated } from 'kysely';

/** A timestamptz column: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Saved log positions of the platform's own log consumers (settlement, importers…). */
export interface ConsumerOffsetTable {
  name: string;
  version: bigint;
  updated_at: Timestamp;
}

/** Operator actions, for audit (manual refunds, voids, resettles, white label changes…). */
export interface AuditLogTable {
  id: Generated<bigint>;
  at: Timestamp;
  actor: string;
  action: string;
  subject: string;
  details: unknown;
}

/** One entry of the trading feed log (spec 02 "Log entry"); `line` is its serialised JSON, stored once. */
export interface FeedLogTable {
  v: bigint;
  sport_event_id: string;
  type: 'match_new' | 'match_update' | 'bet_rollback';
  created_at: Timestamp;
  line: string;
}

/** The current snapshot of a sport event (spec 02 "Sport event snapshot") as a JSON line, and its version. */
export interface SportEventTable {
  id: string;
  version: bigint;
  fixture_status: number;
  snapshot: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the fixture reached ended, closed, cancelled or abandoned (snapshot retention counts from here). */
  finished_at: Date | null;
}

/** The feed's single state row: the retention floor (DECISIONS D22). */
export interface FeedStateTable {
  id: number;
  retention_floor: bigint;
  retention_ran_at: Date | null;
}

/**
 * The whole database as Kysely sees it. Each module declares its own tables in its repository
 * file's neighbourhood and adds them here.
 */
export interface DB {
  consumer_offset: ConsumerOffsetTable;
  audit_log: AuditLogTable;
  feed_log: FeedLogTable;
  sport_event: SportEventTable;
  feed_state: FeedStateTable;
}
