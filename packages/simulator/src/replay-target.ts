/**
 * Where a replay finds the platform, its white labels and the reference wallet.
 *
 * @packageDocumentation
 */
import type { ReportingWhiteLabel } from './reported-bets.js';

/** Where the platform runs and how to reach it. */
export interface ReplayTarget {
  /** Bookie's base URL (trading, feed, frame API, admin API). */
  bookieUrl: string;
  /** The operator token (`BOOKIE_ADMIN_TOKEN`). */
  adminToken: string;
  /** The white label the players belong to, and its OAuth client credentials. */
  whiteLabelId?: string;
  clientId: string;
  clientSecret: string;
  /** The reference wallet (the white label's callback server) and its admin token. */
  walletUrl: string;
  walletAdminToken?: string;
  /** White labels that report their bets: one for Bookie's risk decision (MTS), one for advice only. */
  reporters?: { mts?: ReportingWhiteLabel; advisory?: ReportingWhiteLabel };
}
