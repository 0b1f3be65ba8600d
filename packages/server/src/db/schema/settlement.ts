import type { ColumnType } from 'kysely';
import type { Timestamp } from './columns.js';

/** Where a selection's result comes from (docs/adr/0008-settlement.md). */
export type ResultSource = 'feed' | 'rollback' | 'manual';

/** The settlement ledger (DECISIONS D12): one row per `/bet/settle` or `/bet/unsettle`, written with its callback. */
export interface BetSettlementTable {
  bet_id: string;
  seq: number;
  kind: 'settle' | 'unsettle';
  /** settle_amount or unsettle_amount, exact string. */
  amount: string;
  /** settle_type of a settle (D3); null for an unsettle. */
  settle_type: number | null;
  /** Gross payout of a settle (before a freebet deduction); null for an unsettle. */
  payout: string | null;
  white_label_id: string;
  currency: string;
  request_id: string;
  /** What caused it: `feed:<v>`, `rollback:<v>`, `sweep`, `operator:<action>`. */
  cause: string;
  at: ColumnType<Date, Date | string, Date | string>;
}

/** The result the settlement consumer last applied to an odd (absent = not resulted). */
export interface SettlementResultTable {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  status: number;
  dead_heat: string | null;
  status_reason: string;
  /** True once every open selection on the odd shows this result. */
  applied: ColumnType<boolean, boolean | undefined, boolean>;
  version: bigint;
  updated_at: Timestamp;
}

/** A bet_rollback entry the settlement consumer applied (spec 02). */
export interface SettlementRollbackTable {
  version: bigint;
  sport_event_id: string;
  market_ids: string[];
  reason: string;
  dt_start: ColumnType<Date, Date | string, Date | string>;
  dt_end: ColumnType<Date, Date | string, Date | string>;
  applied_at: Timestamp;
}

/** The settlement consumer's leadership lease (one row per consumer name). */
export interface SettlementLeaseTable {
  name: string;
  owner: string | null;
  epoch: ColumnType<bigint, bigint | undefined, bigint>;
  expires_at: Date | null;
}

/** A log entry the settlement consumer gave up on (docs/adr/0016-safety-and-conformance.md). */
export interface SettlementQuarantineTable {
  consumer: string;
  v: bigint;
  line: string;
  error: string;
  attempts: number;
  status: 'quarantined' | 'retry' | 'resolved' | 'skipped';
  quarantined_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}
