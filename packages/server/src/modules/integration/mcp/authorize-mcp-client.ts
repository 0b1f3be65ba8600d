import { createHash } from 'node:crypto';
import { oauthError } from '../../../http/oauth-errors.js';
import { verifyClientCredentials } from '../../auth/index.js';
import { hashSecret, randomToken } from '../../tenants/index.js';
import type { IntegrationDeps } from '../deps.js';
import { findMcpClient, insertAuthorizationCode } from './mcp-oauth.repo.js';

/** How long an authorization code may wait for its exchange, in ms. */
export const AUTHORIZATION_CODE_TTL_MS = 60_000;

/** The parameters of an authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636; resource, RFC 8707). */
export interface AuthorizationRequest {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  state?: string | undefined;
  resource?: string | undefined;
}

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks an authorization request before the page asks for the white label's credential: a registered MCP client,
 * one of its redirect URIs, `response_type=code` and a PKCE S256 challenge.
 *
 * @throws DomainError (an OAuth error, http/oauth-errors.ts) invalid_request / invalid_client; these are shown on the page, never redirected to an
 * unverified redirect URI.
 */
export async function checkAuthorizationRequest(
  deps: Pick<IntegrationDeps, 'database'>,
  req: Partial<AuthorizationRequest>,
  /** This server's MCP resource URL (RFC 8707): a request naming another resource is refused. */
  resource?: string,
): Promise<AuthorizationRequest> {
  if (resource !== undefined && req.resource !== undefined && req.resource !== resource) {
    throw oauthError('invalid_target', `resource must be ${resource}`);
  }
  if (!req.client_id) throw oauthError('invalid_request', 'client_id is missing');
  const client = await findMcpClient(deps.database.db, req.client_id);
  if (!client) throw oauthError('invalid_client', 'unknown client_id; register the client first');
  if (!req.redirect_uri || !client.redirect_uris.includes(req.redirect_uri)) {
    throw oauthError('invalid_request', 'redirect_uri is not one the client registered');
  }
  if (req.response_type !== 'code') throw oauthError('invalid_request', 'response_type must be code');
  if (
    req.code_challenge_method !== 'S256' ||
    !req.code_challenge ||
    !PKCE_CHALLENGE.test(req.code_challenge)
  ) {
    throw oauthError('invalid_request', 'a PKCE code_challenge with code_challenge_method S256 is required');
  }
  return req as AuthorizationRequest;
}

/**
 * The authorize step (DECISIONS D52): the white label's client id and secret entered on Bookie's page become an
 * authorization code for the MCP client, bound to that credential, the redirect URI and the PKCE challenge.
 *
 * @returns the URL to redirect the browser to (`redirect_uri?code=…&state=…`).
 * @throws DomainError (an OAuth error, http/oauth-errors.ts) as {@link checkAuthorizationRequest}; DomainError unauthorized for a wrong credential.
 */
export async function authorizeMcpClient(
  deps: Pick<IntegrationDeps, 'database' | 'clock'>,
  req: Partial<AuthorizationRequest>,
  credential: { clientId: string; clientSecret: string },
  resource?: string,
): Promise<string> {
  const checked = await checkAuthorizationRequest(deps, req, resource);
  const cred = await verifyClientCredentials(deps, credential);
  const code = randomToken('bkmc_');
  await insertAuthorizationCode(deps.database.db, {
    code_hash: hashSecret(code),
    client_id: checked.client_id,
    credential_id: cred.id,
    redirect_uri: checked.redirect_uri,
    code_challenge: checked.code_challenge,
    resource: checked.resource ?? null,
    expires_at: new Date(deps.clock.now() + AUTHORIZATION_CODE_TTL_MS),
    used_at: null,
  });
  const url = new URL(checked.redirect_uri);
  url.searchParams.set('code', code);
  if (checked.state !== undefined) url.searchParams.set('state', checked.state);
  return url.toString();
}

/** The S256 PKCE challenge of a verifier (RFC 7636 §4.2). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
