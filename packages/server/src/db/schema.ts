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

/**
 * The whole database as Kysely sees it. Each module declares its own tables in its repository
 * file's neighbourhood and adds them here.
 */
export interface DB {
  consumer_offset: ConsumerOffsetTable;
  audit_log: AuditLogTable;
}
