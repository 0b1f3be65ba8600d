import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Tenancy (docs/adr/0005-tenancy.md): white labels, their OAuth client credentials, the short-lived
 * access tokens issued for them (stored hashed), and player session tokens (DECISIONS D26, stored hashed).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE white_label (
       id text PRIMARY KEY,
       name text NOT NULL,
       mode text NOT NULL DEFAULT 'turnkey' CHECK (mode IN ('turnkey', 'mts', 'advisory')),
       currencies text[] NOT NULL,
       callback_url text,
       min_stake numeric,
       max_stake numeric,
       max_payout numeric,
       bet_interval_s integer NOT NULL DEFAULT 0 CHECK (bet_interval_s >= 0),
       bet_delay_s integer NOT NULL DEFAULT 0 CHECK (bet_delay_s >= 0),
       allowlist text[] NOT NULL DEFAULT '{}',
       signing_enabled boolean NOT NULL DEFAULT true,
       signing_secret text NOT NULL,
       previous_signing_secret text,
       previous_signing_secret_until timestamptz,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE oauth_credential (
       id text PRIMARY KEY,
       white_label_id text NOT NULL REFERENCES white_label (id),
       client_id text NOT NULL UNIQUE,
       secret_hash text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       revoked_at timestamptz
     )`,
    `CREATE INDEX oauth_credential_wl ON oauth_credential (white_label_id)`,
    `CREATE TABLE access_token (
       token_hash text PRIMARY KEY,
       credential_id text NOT NULL REFERENCES oauth_credential (id),
       white_label_id text NOT NULL REFERENCES white_label (id),
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL
     )`,
    `CREATE INDEX access_token_expires ON access_token (expires_at)`,
    `CREATE TABLE session_token (
       id text PRIMARY KEY,
       token_hash text NOT NULL UNIQUE,
       white_label_id text NOT NULL REFERENCES white_label (id),
       player_id text NOT NULL,
       currency text NOT NULL,
       locale text NOT NULL,
       params jsonb NOT NULL DEFAULT '{}'::jsonb,
       context jsonb NOT NULL DEFAULT '{}'::jsonb,
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       ended_at timestamptz
     )`,
    `CREATE INDEX session_token_wl_player ON session_token (white_label_id, player_id)`,
    `CREATE INDEX session_token_expires ON session_token (expires_at)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE session_token',
    'DROP TABLE access_token',
    'DROP TABLE oauth_credential',
    'DROP TABLE white_label',
  ]);
}
