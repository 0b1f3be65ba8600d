import type { SelectionNames } from '@bookie/contracts';
import type { BetState } from '@bookie/core';
import type { ColumnType, Generated } from 'kysely';

/** Kysely's row and builder types, for code outside the repositories (which never imports kysely itself). */
export type { Insertable, Kysely, Selectable, TransactionBuilder, Updateable } from 'kysely';

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

/** Internal named states of a bet: core's bet life cycle (docs/adr/0038-bet-owner.md); codes are mapped at the edge. */
export type { BetState };

/** A bet. Money columns are numeric, read as exact strings; odds numeric with 12 decimals. */
export interface BetTable {
  id: string;
  white_label_id: string;
  player_id: string;
  currency: string;
  bet_type: 'single' | 'express' | 'system';
  /** JSON array of sizes (system only; `[]` otherwise). */
  system_sizes: ColumnType<number[], string, string>;
  stake: string;
  odds_strategy: number;
  base_odds: string;
  total_odds: string;
  state: BetState;
  restrictions: ColumnType<unknown[], string | undefined, string>;
  freebet_id: string | null;
  insurance_id: string | null;
  boost_id: string | null;
  /** The boost multiplier of a boosted bet (docs/adr/0009-bonuses.md); null without a boost. */
  boost_multiplier: ColumnType<string | null, string | null | undefined, string | null>;
  foreign_params: ColumnType<Record<string, unknown>, string | undefined, string>;
  session_token_hash: string | null;
  client_key: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  placement_deadline: ColumnType<Date, Date | string, Date | string>;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  payout: string | null;
  settle_amount: string | null;
  settle_type: number | null;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  settlement_seq: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** D6 code of a settled bet: 3 settled, 5 refunded (every leg void), 6 refunded manually; null otherwise. */
  settle_status: ColumnType<number | null, number | null | undefined, number | null>;
  /** Who reported the bet: `frame` (placed through the frame) or `mts` (reported by the partner, POST /bets). */
  source: ColumnType<'frame' | 'mts', 'frame' | 'mts' | undefined, 'frame' | 'mts'>;
  /** The partner's own bet id of an MTS bet (its `{bet_id}`); null for frame bets. */
  partner_bet_id: ColumnType<string | null, string | null | undefined, string | null>;
  client_ip: ColumnType<string | null, string | null | undefined, string | null>;
  country_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** Σ amount of the partner's accepted foreign cash-out orders (MTS); settlement pays on the stake left. */
  foreign_cashed_out: ColumnType<string, string | undefined, string>;
  /** Σ amount of the bet's accepted cash-out orders: the stake settlement pays on is `stake − cashed_out_stake`. */
  cashed_out_stake: ColumnType<string, string | undefined, string>;
  /** Σ refund_amount of the same orders: what the player received for them. */
  cashed_out_refund: ColumnType<string, string | undefined, string>;
}

/** The key cash-out quotes are signed with (one row). */
export interface CashOutKeyTable {
  id: number;
  secret: string;
}

/**
 * A cash-out order the platform decided (place/cancel). Orders the partner decided itself (foreign cash-out orders)
 * live in `mts_foreign_cash_out_order`; `source` is always `platform` (the column's `foreign` value is never written).
 */
export interface CashOutOrderTable {
  bet_id: string;
  id: string;
  source: 'platform';
  amount: string;
  refund_amount: string;
  status: 'pending' | 'accepted' | 'declined';
  reason: ColumnType<string, string | undefined, string>;
  quote_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A white label's own cash-out margin (a fraction in [0, 1)). */
export interface CashOutMarginTable {
  white_label_id: string;
  margin: string;
}

/** A selection (leg) of a bet. */
export interface BetSelectionTable {
  bet_id: string;
  idx: number;
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  requested_odds: string;
  odds: string;
  status: ColumnType<number, number | undefined, number>;
  dead_heat: string | null;
  status_reason: ColumnType<string, string | undefined, string>;
  odd_updated_at: ColumnType<Date, Date | string, Date | string>;
  match_status: number;
  /** Sport event facts captured at placement (competitors, tournament, start time, state…). */
  event_info: ColumnType<Record<string, unknown>, string, string>;
  /** Where the result comes from: the feed, a bet_rollback, or an operator (the feed never overrides the others). */
  result_source: ColumnType<ResultSource, ResultSource | undefined, ResultSource>;
  /** The partner's id of a foreign selection (MTS mixed combo): its result comes from the partner; null otherwise. */
  foreign_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the selection was called at placement (event, market, outcome names and their templates); null before. */
  names: ColumnType<SelectionNames | null, string | null | undefined, string | null>;
}

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

/** Leadership of a background role across processes (one row per role; `epoch` fences its writes). */
export interface LeaderLeaseTable {
  role: string;
  holder: string | null;
  epoch: ColumnType<bigint, bigint | undefined, bigint>;
  expires_at: Date | null;
  acquired_at: Date | null;
}

/** Last accepted bet of a player on a sport event (bet_interval restriction). */
export interface PlayerEventBetTable {
  white_label_id: string;
  player_id: string;
  sport_event_id: string;
  last_bet_at: ColumnType<Date, Date | string, Date | string>;
}

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

/** A backoffice user (DECISIONS D53): an operator, or a partner user of one white label. */
export interface BackofficeUserTable {
  id: string;
  email: string;
  role: 'operator' | 'partner_admin' | 'partner_viewer';
  white_label_id: string | null;
  password_hash: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Failed backoffice logins of one email from one source address, and the lock they earned (ADR 0030). */
export interface LoginThrottleTable {
  email: string;
  source: string;
  failures: number;
  locked_until: Date | null;
  updated_at: Date;
}

/** A backoffice session: the hash of its cookie value, its CSRF token, its expiry. */
export interface UserSessionTable {
  id: string;
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: ColumnType<Date, Date, Date>;
  ended_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/**
 * The whole database as Kysely sees it. Each module declares its own tables in its repository
 * file's neighbourhood and adds them here.
 */
/** Live or prematch (D34, D37, D38). */
export type RiskPhase = 'live' | 'prematch';

/** The exposure one leg of an accepted bet adds to its outcome (D37), EUR; numeric read as strings. */
export interface BetExposureTable {
  bet_id: string;
  idx: number;
  white_label_id: string;
  phase: RiskPhase;
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  market_type_id: string;
  amount: string;
  eur_rate: string;
}

/** Exposure per outcome (D37): Σ bet_exposure of the open bets, kept by a trigger on bet state changes. */
export interface RiskExposureTable {
  white_label_id: string;
  phase: RiskPhase;
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  market_type_id: string;
  amount: string;
  /** The largest exposure the outcome has had. */
  max_amount: ColumnType<string, string | undefined, string>;
}

/** A liability limit per outcome (D38), per white label and market type (`*` = any), EUR. */
export interface RiskLimitTable {
  white_label_id: string;
  market_type_id: string;
  phase: RiskPhase;
  liability_eur: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A risk group (D38). */
export interface RiskGroupTable {
  name: string;
  stake_factor: string;
  max_payout_eur: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A player's risk group and the closing-line values behind the score (D38, D40). */
export interface PlayerRiskTable {
  white_label_id: string;
  player_id: string;
  group_name: string;
  group_source: 'default' | 'recommended' | 'partner' | 'operator';
  clv_sum: ColumnType<string, string | undefined, string>;
  clv_count: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The closing price of an odd (D40): its value just before the sport event started. */
export interface RiskClosingOddsTable {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  odds: string;
}

/** A shaded outcome (D39): the base odds trading set and the shaded value last published. */
export interface RiskShadingTable {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  base_odds: string;
  shaded_odds: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** What shading did to one outcome: publications of lowered odds, the lowest published, the base lowered from. */
export interface RiskShadingHistoryTable {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  market_type_id: string;
  base_odds: string;
  lowest_odds: string;
  publications: number;
  last_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A bet delay level (D34), seconds. */
export interface RiskDelayTable {
  level: 'sport_event' | 'market_type' | 'risk_group';
  key: string;
  phase: RiskPhase;
  seconds: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An MCP client registered dynamically (RFC 7591; docs/adr/0022-integration-environment.md). */
export interface McpClientTable {
  client_id: string;
  client_name: string | null;
  redirect_uris: string[];
  created_at: Generated<Date>;
}

/** An MCP authorization code (RFC 6749 §4.1 with PKCE), stored as its SHA-256; single use. */
export interface McpAuthorizationCodeTable {
  code_hash: string;
  client_id: string;
  credential_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string | null;
  expires_at: Date;
  used_at: Date | null;
}

/** An MCP refresh token, stored as its SHA-256; rotated (used once) and ended by its credential's revocation. */
export interface McpRefreshTokenTable {
  token_hash: string;
  client_id: string;
  credential_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
}

export interface DB {
  backoffice_user: BackofficeUserTable;
  user_session: UserSessionTable;
  login_throttle: LoginThrottleTable;
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
  freebet: FreebetTable;
  insurance: InsuranceTable;
  bet_boost: BetBoostTable;
  bet_boost_use: BetBoostUseTable;
  bet: BetTable;
  cash_out_key: CashOutKeyTable;
  cash_out_order: CashOutOrderTable;
  cash_out_margin: CashOutMarginTable;
  bet_selection: BetSelectionTable;
  player_event_bet: PlayerEventBetTable;
  bet_settlement: BetSettlementTable;
  settlement_result: SettlementResultTable;
  settlement_rollback: SettlementRollbackTable;
  settlement_lease: SettlementLeaseTable;
  leader_lease: LeaderLeaseTable;
  bet_exposure: BetExposureTable;
  risk_exposure: RiskExposureTable;
  risk_limit: RiskLimitTable;
  risk_group: RiskGroupTable;
  player_risk: PlayerRiskTable;
  risk_delay: RiskDelayTable;
  risk_closing_odds: RiskClosingOddsTable;
  risk_shading: RiskShadingTable;
  risk_shading_history: RiskShadingHistoryTable;
  settlement_quarantine: SettlementQuarantineTable;
  white_label_certificate: WhiteLabelCertificateTable;
  mcp_client: McpClientTable;
  mcp_authorization_code: McpAuthorizationCodeTable;
  mcp_refresh_token: McpRefreshTokenTable;
  mts_request: MtsRequestTable;
  mts_foreign_cash_out_order: MtsForeignCashOutOrderTable;
  advisory_bet: AdvisoryBetTable;
  advisory_bet_version: AdvisoryBetVersionTable;
}

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
