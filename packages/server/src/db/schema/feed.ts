import type { ColumnType } from 'kysely';
import type { Timestamp } from './columns.js';

/** Saved log positions of the platform's own log consumers (settlement, importers…). */
export interface ConsumerOffsetTable {
  name: string;
  version: bigint;
  updated_at: Timestamp;
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

/** Leadership of a background role across processes (one row per role; `epoch` fences its writes). */
export interface LeaderLeaseTable {
  role: string;
  holder: string | null;
  epoch: ColumnType<bigint, bigint | undefined, bigint>;
  expires_at: Date | null;
  acquired_at: Date | null;
}
