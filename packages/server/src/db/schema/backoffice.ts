import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.js';

/** Operator actions, for audit (manual refunds, voids, resettles, white label changes…). */
export interface AuditLogTable {
  id: Generated<bigint>;
  at: Timestamp;
  actor: string;
  action: string;
  subject: string;
  details: unknown;
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
