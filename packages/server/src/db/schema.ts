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
  status: ColumnType<'pending' | 'delivered' | 'failed', 'pending' | 'delivered' | 'failed' | undefined, 'pending' | 'delivered' | 'failed'>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  lease_owner: string | null;
  lease_until: Date | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Generated<Date>;
}

/** A white label (partner) of the platform (issue 5, docs/adr/0005-tenancy.md). */
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
  signing_enabled: ColumnType<boolean, boolean | undefined, boolean>;
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
  white_label: WhiteLabelTable;
  oauth_credential: OauthCredentialTable;
  access_token: AccessTokenTable;
  session_token: SessionTokenTable;
  callback_delivery: CallbackDeliveryTable;
}
