import { oauthError } from '../../../http/oauth-errors.js';
import { grantAccessToken } from '../../auth/index.js';
import { hashSecret, randomToken } from '../../tenants/index.js';
import type { IntegrationDeps } from '../deps.js';
import { pkceChallenge } from './authorize-mcp-client.js';
import {
  findActiveCredential,
  insertRefreshToken,
  useAuthorizationCode,
  useRefreshToken,
} from './mcp-oauth.repo.js';

/** How long a refresh token lives unused, in ms (30 days). */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;

/** The token answer (RFC 6749 §5.1). */
export interface McpTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

const invalidGrant = (m: string) => oauthError('invalid_grant', m);

async function issue(
  deps: Pick<IntegrationDeps, 'database' | 'clock' | 'config'>,
  clientId: string,
  credentialId: string,
): Promise<McpTokens> {
  // a revoked credential ends the grant: the MCP client must be authorized again (DECISIONS D52)
  const cred = await findActiveCredential(deps.database.db, credentialId);
  if (!cred) throw invalidGrant('the credential of this grant was revoked; authorize again');
  const access = await grantAccessToken(deps, { credentialId: cred.id, whiteLabelId: cred.white_label_id });
  const refresh = randomToken('bkmr_');
  const now = deps.clock.now();
  await insertRefreshToken(deps.database.db, {
    token_hash: hashSecret(refresh),
    client_id: clientId,
    credential_id: cred.id,
    created_at: new Date(now),
    expires_at: new Date(now + REFRESH_TOKEN_TTL_MS),
    used_at: null,
  });
  return {
    access_token: access.accessToken,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: refresh,
  };
}

/**
 * The MCP token endpoint's grants (RFC 6749 §4.1.3 with PKCE, §6 refresh): an authorization code is exchanged once,
 * by the client it was issued to, with the same redirect URI and the PKCE verifier; a refresh token is used once and
 * replaced (rotation). Both give a partner access token of the credential that was authorized (the same tokens
 * `POST /oauth/token` issues, so the REST routes accept them) and a new refresh token.
 *
 * @throws DomainError (an OAuth error, http/oauth-errors.ts) invalid_request, invalid_grant (unknown, used, expired, mismatched or revoked),
 * unsupported_grant_type.
 */
export async function exchangeMcpToken(
  deps: Pick<IntegrationDeps, 'database' | 'clock' | 'config'>,
  params: Record<string, string | undefined>,
): Promise<McpTokens> {
  const now = new Date(deps.clock.now());
  if (!params.client_id) throw oauthError('invalid_request', 'client_id is missing');
  if (params.grant_type === 'authorization_code') {
    if (!params.code || !params.code_verifier || !params.redirect_uri) {
      throw oauthError('invalid_request', 'code, code_verifier and redirect_uri are required');
    }
    const code = await useAuthorizationCode(deps.database.db, hashSecret(params.code), now);
    if (!code || code.expires_at.getTime() <= now.getTime())
      throw invalidGrant('unknown, used or expired code');
    if (code.client_id !== params.client_id) throw invalidGrant('the code was issued to another client');
    if (code.redirect_uri !== params.redirect_uri)
      throw invalidGrant('redirect_uri differs from the authorization');
    if (pkceChallenge(params.code_verifier) !== code.code_challenge)
      throw invalidGrant('PKCE verification failed');
    if (params.resource !== undefined && code.resource !== null && params.resource !== code.resource) {
      throw oauthError('invalid_target', 'resource differs from the authorization');
    }
    return issue(deps, code.client_id, code.credential_id);
  }
  if (params.grant_type === 'refresh_token') {
    if (!params.refresh_token) throw oauthError('invalid_request', 'refresh_token is missing');
    const row = await useRefreshToken(deps.database.db, hashSecret(params.refresh_token), now);
    if (!row || row.expires_at.getTime() <= now.getTime())
      throw invalidGrant('unknown, used or expired refresh token');
    if (row.client_id !== params.client_id)
      throw invalidGrant('the refresh token was issued to another client');
    return issue(deps, row.client_id, row.credential_id);
  }
  throw oauthError(
    'unsupported_grant_type',
    `grant_type ${params.grant_type ?? '(missing)'} is not supported; use authorization_code or refresh_token`,
  );
}
