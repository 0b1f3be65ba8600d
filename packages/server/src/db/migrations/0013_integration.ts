import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The integration environment's MCP authorization (DECISIONS D52, docs/adr/0022-integration-environment.md): MCP
 * clients registered dynamically (RFC 7591), authorization codes bound to a white label's credential and a PKCE
 * challenge, and refresh tokens (rotated on every use). Codes and refresh tokens are stored as their SHA-256.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE mcp_client (
       client_id text PRIMARY KEY,
       client_name text,
       redirect_uris text[] NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE mcp_authorization_code (
       code_hash text PRIMARY KEY,
       client_id text NOT NULL REFERENCES mcp_client (client_id),
       credential_id text NOT NULL REFERENCES oauth_credential (id),
       redirect_uri text NOT NULL,
       code_challenge text NOT NULL,
       resource text,
       expires_at timestamptz NOT NULL,
       used_at timestamptz
     )`,
    `CREATE TABLE mcp_refresh_token (
       token_hash text PRIMARY KEY,
       client_id text NOT NULL REFERENCES mcp_client (client_id),
       credential_id text NOT NULL REFERENCES oauth_credential (id),
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       used_at timestamptz
     )`,
    `CREATE INDEX mcp_refresh_token_credential ON mcp_refresh_token (credential_id)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE mcp_refresh_token',
    'DROP TABLE mcp_authorization_code',
    'DROP TABLE mcp_client',
  ]);
}
