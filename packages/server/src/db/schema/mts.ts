import type { ColumnType } from 'kysely';

/** A reported MTS bet's request and the answer given (byte-identical repeats). */
export interface MtsRequestTable {
  white_label_id: string;
  partner_bet_id: string;
  request: string;
  answer: string;
  bet_id: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A foreign cash-out order of an MTS bet as the partner reported it. */
export interface MtsForeignCashOutOrderTable {
  bet_id: string;
  order_id: string;
  amount: string;
  refund_amount: string;
  status: 'pending' | 'accepted' | 'declined';
  reason: string | null;
  created_at: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An advisory bet: its current state (the last version) and the restrictions advised. */
export interface AdvisoryBetTable {
  white_label_id: string;
  bet_id: string;
  player_id: string;
  status_code: number;
  version: number;
  state: ColumnType<Record<string, unknown>, string, string>;
  restrictions: ColumnType<unknown[], string, string>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

/** Every state an advisory bet was reported in. */
export interface AdvisoryBetVersionTable {
  white_label_id: string;
  bet_id: string;
  version: number;
  state: ColumnType<Record<string, unknown>, string, string>;
  at: ColumnType<Date, Date | string, Date | string>;
}
