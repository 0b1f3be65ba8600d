import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Backoffice users and their sessions (DECISIONS D53, docs/adr/0021-backoffice-and-partner-rest.md): operator users
 * (every white label) and partner users of one white label; scrypt password hashes; sessions stored by the hash of
 * their cookie value, each with its CSRF token; failed logins counted for the lockout. Partner REST listings of a
 * white label's bets (D54) page by (created_at, id).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE backoffice_user (
       id text PRIMARY KEY,
       email text NOT NULL UNIQUE,
       role text NOT NULL CHECK (role IN ('operator', 'partner_admin', 'partner_viewer')),
       white_label_id text REFERENCES white_label (id),
       password_hash text NOT NULL,
       failed_logins integer NOT NULL DEFAULT 0,
       locked_until timestamptz,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       CHECK ((role = 'operator') = (white_label_id IS NULL))
     )`,
    `CREATE TABLE user_session (
       id text PRIMARY KEY,
       token_hash text NOT NULL UNIQUE,
       user_id text NOT NULL REFERENCES backoffice_user (id),
       csrf_token text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       ended_at timestamptz
     )`,
    `CREATE INDEX user_session_user ON user_session (user_id)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE user_session', 'DROP TABLE backoffice_user']);
}
