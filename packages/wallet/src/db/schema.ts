import type { ColumnType, Generated } from 'kysely';

/** A timestamptz column: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * A player's balance in one currency, in micro-units (see money.ts). `available` is what the player can stake; it may
 * go below zero only through an unsettle (a debit is never refused, docs/adr/0006-sdk-and-wallet.md). `held` is the
 * sum of the stakes on hold (placed bets not yet accepted or declined), never negative.
 */
export interface AccountTable {
  player_id: string;
  currency: string;
  available: bigint;
  held: bigint;
  updated_at: Generated<Date>;
}

/** The wallet's state of a bet (docs/adr/0006-sdk-and-wallet.md "Bet states"). */
export type BetState = 'held' | 'accepted' | 'declined' | 'settled' | 'unsettled';

/**
 * A bet the wallet has seen. `stake` is what was held (0 for a freebet bet, a decline tombstone or a reported bet).
 */
export interface BetTable {
  bet_id: string;
  player_id: string;
  currency: string;
  stake: bigint;
  freebet: boolean;
  state: BetState;
  /** Net settled amount: the last settle_amount while settled, 0 after an unsettle (D12). */
  settled: bigint;
  /**
   * A bet the partner took and reported to Bookie itself (risk management mode): first seen in its `/bet/settle`,
   * with no stake held; its settles credit and its unsettles debit like any other bet's.
   */
  reported: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Kinds of ledger rows; hold and release move money between available and held, the others in or out. */
export type LedgerKind = 'deposit' | 'hold' | 'release' | 'capture' | 'credit' | 'debit';

/**
 * One money movement. `amount` is positive micro-units; `reason` says which callback or action caused it (`deposit`,
 * `place`, `accept`, `decline`, `settle`, `unsettle`, `insurance`, `cash_out`); `ref` is the bet, insurance or
 * cash-out order id, or the deposit reference. No callback moves money twice even under a new request_id: a hold,
 * capture or release is decided by the bet's state (one per bet), and `(kind, reason, ref)` is unique for the other
 * once-only movements (deposits with a reference, insurance and cash-out payments and their reversals).
 */
export interface LedgerTable {
  id: Generated<bigint>;
  player_id: string;
  currency: string;
  kind: LedgerKind;
  reason: string;
  amount: bigint;
  bet_id: string | null;
  ref: string | null;
  request_id: string | null;
  available_after: bigint;
  held_after: bigint;
  at: Generated<Date>;
}

/** The SDK's stored callback answers (SqlIdempotencyStore). */
export interface CallbackRequestTable {
  request_id: string;
  fingerprint: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: Generated<Date>;
  answered_at: Date | null;
}

/** The wallet database. */
export interface WalletDB {
  accounts: AccountTable;
  bets: BetTable;
  ledger: LedgerTable;
  callback_requests: CallbackRequestTable;
}
