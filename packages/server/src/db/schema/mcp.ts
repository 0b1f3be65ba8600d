import type { Generated } from 'kysely';

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
