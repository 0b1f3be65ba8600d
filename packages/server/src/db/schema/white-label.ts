import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.js';

/** One partner callback in the outbox (DECISIONS D7–D10). */
export interface CallbackDeliveryTable {
  id: Generated<bigint>;
  request_id: string;
  white_label_id: string;
  bet_id: string;
  path: string;
  /** The exact bytes sent on every attempt (D7). */
  body: string;
  /** The Foreign-Params header value (D7). */
  foreign_params: ColumnType<string, string | undefined, string>;
  /** `sync` for /bet/place (called inline by placement), `async` for the dispatcher. */
  mode: ColumnType<'async' | 'sync', 'async' | 'sync' | undefined, 'async' | 'sync'>;
  status: ColumnType<
    'pending' | 'delivered' | 'failed' | 'unsupported',
    'pending' | 'delivered' | 'failed' | 'unsupported' | undefined,
    'pending' | 'delivered' | 'failed' | 'unsupported'
  >;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  lease_owner: string | null;
  lease_until: Date | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Generated<Date>;
  /** Waits in the dispatchers' queue: pending, async, not held by the process that wrote it born leased. */
  queued: Generated<boolean>;
  /** Written leased to the dispatcher of the process that wrote it (never changes). */
  born_leased: Generated<boolean>;
}

/**
 * How far the outbox's retention has looked (one row, id 1): every row with an id at or below `through_id` was
 * examined once older than the retention, and removed when it was a delivered callback the retention may remove.
 */
export interface CallbackRetentionMarkTable {
  id: number;
  through_id: ColumnType<bigint, bigint | string | number, bigint | string | number>;
}

/**
 * How far the recovery of born-leased callbacks has looked (one row, id 1): every born-leased row written before
 * `through` was found recorded, or handed to the queue, by a run of the recovery.
 */
export interface CallbackRecoveryMarkTable {
  id: number;
  through: ColumnType<Date, Date | string, Date | string>;
}

/** One optional callback of a white label as stored: the partner's announcement and what Bookie learnt. */
export interface StoredOptionalCallback {
  announced?: boolean | null;
  learnt?: 'unknown' | 'supported' | 'unsupported';
  learnt_at?: string | null;
  last_status?: number | null;
}

/** The `optional_callbacks` column of a white label, by capability name. */
export type StoredOptionalCallbacks = Partial<Record<string, StoredOptionalCallback>>;

/** A white label (partner) of the platform (docs/adr/0005-tenancy.md). */
export interface WhiteLabelTable {
  id: string;
  name: string;
  mode: ColumnType<'turnkey' | 'mts' | 'advisory', 'turnkey' | 'mts' | 'advisory' | undefined>;
  currencies: string[];
  callback_url: string | null;
  /** numeric, read as exact decimal strings; null = no limit. */
  min_stake: string | null;
  max_stake: string | null;
  max_payout: string | null;
  bet_interval_s: ColumnType<number, number | undefined, number>;
  bet_delay_s: ColumnType<number, number | undefined, number>;
  /** IPv4, IPv6 and CIDR entries; empty = no address is allowed. */
  allowlist: ColumnType<string[], string[] | undefined, string[]>;
  /** Web origins allowed to call the frame API from a browser (CORS, D49); empty = none. */
  allowed_origins: ColumnType<string[], string[] | undefined, string[]>;
  signing_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** Send `/bet/insurances/cancel` (on unless the white label opts out: docs/adr/0029-optional-callbacks.md). */
  insurance_cancel_callbacks: ColumnType<boolean, boolean | undefined, boolean>;
  /**
   * Optional callbacks as capabilities: per capability name what the partner announced and what Bookie learnt
   * (docs/adr/0029-optional-callbacks.md).
   */
  optional_callbacks: ColumnType<StoredOptionalCallbacks, string | undefined, string>;
  /** Standard Webhooks secret `whsec_…` (DECISIONS D11). */
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_signing_secret_until: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An OAuth 2.0 client credential of a white label; the secret is stored as its SHA-256. */
export interface OauthCredentialTable {
  id: string;
  white_label_id: string;
  client_id: string;
  secret_hash: string;
  created_at: Timestamp;
  revoked_at: Date | null;
}

/** An issued partner access token (DECISIONS D27), stored as its SHA-256. */
export interface AccessTokenTable {
  token_hash: string;
  credential_id: string;
  white_label_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A player session token (DECISIONS D26), stored as its SHA-256. */
export interface SessionTokenTable {
  id: string;
  token_hash: string;
  white_label_id: string;
  /** Empty for a read-only viewer. */
  player_id: string;
  currency: string;
  locale: string;
  params: ColumnType<Record<string, unknown>, string, string>;
  context: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Date | null;
  /** When the frame last called the frame API (D47); null = never. */
  last_seen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When a heartbeat was last claimed for this session (D47). */
  heartbeat_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A client certificate bound to a white label (feed authentication by certificate, spec 02). */
export interface WhiteLabelCertificateTable {
  id: string;
  white_label_id: string;
  /** SHA-256 of the DER certificate, lowercase hex without separators. */
  fingerprint: string;
  subject: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
