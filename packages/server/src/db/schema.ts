import type {
  AuditLogTable,
  BackofficeUserTable,
  LoginThrottleTable,
  UserSessionTable,
} from './schema/backoffice.js';
import type {
  BetBuilderTable,
  BetSelectionTable,
  BetTable,
  CashOutKeyTable,
  CashOutMarginTable,
  CashOutOrderTable,
  PlacementRecoveryMarkTable,
  PlayerEventBetTable,
} from './schema/bet.js';
import type { BetBuilderSettingsTable } from './schema/bet-builder-settings.js';
import type { BetBoostTable, BetBoostUseTable, FreebetTable, InsuranceTable } from './schema/bonus.js';
import type {
  ConsumerOffsetTable,
  FeedLogTable,
  FeedStateTable,
  LeaderLeaseTable,
  SportEventTable,
} from './schema/feed.js';
import type { McpAuthorizationCodeTable, McpClientTable, McpRefreshTokenTable } from './schema/mcp.js';
import type {
  AdvisoryBetTable,
  AdvisoryBetVersionTable,
  MtsForeignCashOutOrderTable,
  MtsRequestTable,
} from './schema/mts.js';
import type {
  BetExposureTable,
  PlayerRiskTable,
  RiskClosingOddsTable,
  RiskDelayTable,
  RiskExposureTable,
  RiskGroupTable,
  RiskLimitTable,
  RiskShadingHistoryTable,
  RiskShadingTable,
} from './schema/risk.js';
import type {
  BetSettlementTable,
  SettlementLeaseTable,
  SettlementQuarantineTable,
  SettlementResultTable,
  SettlementRollbackTable,
} from './schema/settlement.js';
import type {
  AccessTokenTable,
  CallbackDeliveryTable,
  CallbackRecoveryMarkTable,
  CallbackRetentionMarkTable,
  OauthCredentialTable,
  SessionTokenTable,
  WhiteLabelCertificateTable,
  WhiteLabelTable,
} from './schema/white-label.js';

/** Kysely's row and builder types, for code outside the repositories (which never imports kysely itself). */
export type { Insertable, Kysely, Selectable, TransactionBuilder, Updateable } from 'kysely';
export type * from './schema/backoffice.js';
export type * from './schema/bet.js';
export type * from './schema/bonus.js';
/** Every table and row type of the platform, by area (db/schema/). */
export type * from './schema/columns.js';
export type * from './schema/feed.js';
export type * from './schema/mcp.js';
export type * from './schema/mts.js';
export type * from './schema/risk.js';
export type * from './schema/settlement.js';
export type * from './schema/white-label.js';

/**
 * The whole database as Kysely sees it. Each module declares its own tables in its repository
 * file's neighbourhood and adds them here.
 */
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
  callback_recovery_mark: CallbackRecoveryMarkTable;
  callback_retention_mark: CallbackRetentionMarkTable;
  freebet: FreebetTable;
  insurance: InsuranceTable;
  bet_boost: BetBoostTable;
  bet_boost_use: BetBoostUseTable;
  bet: BetTable;
  cash_out_key: CashOutKeyTable;
  cash_out_order: CashOutOrderTable;
  cash_out_margin: CashOutMarginTable;
  bet_builder_settings: BetBuilderSettingsTable;
  bet_selection: BetSelectionTable;
  bet_builder: BetBuilderTable;
  player_event_bet: PlayerEventBetTable;
  placement_recovery_mark: PlacementRecoveryMarkTable;
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
