import { DomainError } from '@bookie/core';
import type { PlatformServices } from '../../platform/services.js';
import { findCredentialByClientId, hashSecret, PREFIX, randomToken, sameHash } from '../tenants/index.js';
import { deleteExpiredAccessTokens, insertAccessToken } from './auth.repo.js';

/** A hash no secret has, compared against when the client id is unknown (same work either way). */
const NO_SECRET_HASH = hashSecret('no such credential');

/**
 * The OAuth 2.0 client credentials grant (RFC 6749 §4.4, DECISIONS D27): checks the client id and secret and
 * issues an opaque, short-lived access token, stored as its SHA-256 with its credential and expiry.
 *
 * @returns the token and its lifetime in seconds.
 * @throws DomainError unauthorized (`details.error = "invalid_client"`) for an unknown, revoked or wrong credential.
 */
export async function issueAccessToken(
  deps: Pick<PlatformServices, 'database' | 'clock' | 'config'>,
  input: { clientId: string; clientSecret: string },
): Promise<IssuedAccessToken> {
  const cred = await verifyClientCredentials(deps, input);
  return grantAccessToken(deps, { credentialId: cred.id, whiteLabelId: cred.white_label_id });
}

/** An access token just issued, with its lifetime in seconds. */
export interface IssuedAccessToken {
  accessToken: string;
  expiresIn: number;
  whiteLabelId: string;
  credentialId: string;
}

/**
 * Checks a white label's client id and secret (DECISIONS D27).
 *
 * @returns the credential's id and white label.
 * @throws DomainError unauthorized (`details.error = "invalid_client"`) for an unknown, revoked or wrong credential.
 */
export async function verifyClientCredentials(
  deps: Pick<PlatformServices, 'database'>,
  input: { clientId: string; clientSecret: string },
): Promise<{ id: string; white_label_id: string }> {
  const cred = await findCredentialByClientId(deps.database.db, input.clientId);
  const ok = sameHash(hashSecret(input.clientSecret), cred?.secret_hash ?? NO_SECRET_HASH);
  if (!cred || !ok || cred.revoked_at !== null) {
    throw new DomainError('unauthorized', 'client authentication failed', { error: 'invalid_client' });
  }
  return cred;
}

/**
 * Issues an opaque access token for a credential already authenticated (by its secret, or by an MCP authorization
 * grant that was: docs/adr/0022-integration-environment.md), stored as its SHA-256 with its expiry.
 */
export async function grantAccessToken(
  deps: Pick<PlatformServices, 'database' | 'clock' | 'config'>,
  cred: { credentialId: string; whiteLabelId: string },
): Promise<IssuedAccessToken> {
  const ttl = deps.config.auth.accessTokenTtlS;
  const now = deps.clock.now();
  const accessToken = randomToken(PREFIX.accessToken);
  await deleteExpiredAccessTokens(deps.database.db, cred.credentialId, new Date(now));
  await insertAccessToken(deps.database.db, {
    token_hash: hashSecret(accessToken),
    credential_id: cred.credentialId,
    white_label_id: cred.whiteLabelId,
    created_at: new Date(now),
    expires_at: new Date(now + ttl * 1000),
  });
  return { accessToken, expiresIn: ttl, whiteLabelId: cred.whiteLabelId, credentialId: cred.credentialId };
}
