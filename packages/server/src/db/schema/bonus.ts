import type { ColumnType } from 'kysely';

/** A freebet (spec 01 "Freebet"; docs/adr/0009-bonuses.md). Money numeric, read as exact strings. */
export interface FreebetTable {
  id: string;
  white_label_id: string;
  player_id: string;
  currency_code: string;
  amount: string;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** As sent (spec 01 bet_details form). */
  conditions: ColumnType<unknown[], string, string>;
  foreign_params: ColumnType<Record<string, unknown>, string | undefined, string>;
  status: 'available' | 'reserved' | 'used' | 'cancelled';
  /** The bet it is reserved for or was used on. */
  bet_id: string | null;
  reserved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  idempotence_id: string | null;
  request_hash: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

/** A bet insurance (spec 01 "Bet insurance"; docs/adr/0009-bonuses.md). */
export interface InsuranceTable {
  id: string;
  white_label_id: string;
  player_id: string;
  currency_code: string;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  conditions: ColumnType<unknown[], string, string>;
  stake_amount_range: ColumnType<
    { min?: string; max?: string } | null,
    string | null | undefined,
    string | null
  >;
  payout_type: 'amount' | 'percent';
  amount: string | null;
  percent: string | null;
  max_amount: string | null;
  max_odds_count_lose: number | null;
  foreign_params: ColumnType<Record<string, unknown>, string | undefined, string>;
  status: 'available' | 'applied' | 'paid' | 'declined' | 'cancelled';
  bet_id: string | null;
  applied_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  refund_amount: string | null;
  /**
   * Where the refund stands (docs/decisions.md, "Insurance refunds"): `paid` an accepted stands and can be taken back,
   * `cancel_requested` a cancel takes it back, `kept` it stands and cannot be taken back, `not_paid` the partner
   * refused the accepted; null: no refund.
   */
  refund_state: ColumnType<RefundState | null, RefundState | null | undefined, RefundState | null>;
  /** Whether the bet's latest result earns the refund; null while the bet is unsettled (or never settled). */
  earned: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  resolved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  idempotence_id: string | null;
  request_hash: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

/** Where an insurance refund stands (see {@link InsuranceTable.refund_state}). */
export type RefundState = 'paid' | 'cancel_requested' | 'kept' | 'not_paid';

/** A bet boost (DECISIONS D19; docs/adr/0009-bonuses.md). */
export interface BetBoostTable {
  id: string;
  white_label_id: string;
  /** null: every player of the white label. */
  player_id: string | null;
  name: ColumnType<string, string | undefined, string>;
  multiplier: string;
  conditions: ColumnType<unknown[], string, string>;
  quantity: number;
  remaining_quantity: number;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  foreign_params: ColumnType<Record<string, unknown>, string | undefined, string>;
  idempotence_id: string | null;
  request_hash: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  /** When the partner cancelled it: no bet takes it any more. */
  cancelled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The boost a bet took: reserved at its creation, used on accept, released on decline. */
export interface BetBoostUseTable {
  bet_id: string;
  boost_id: string;
  state: 'reserved' | 'used' | 'released';
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}
