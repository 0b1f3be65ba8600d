import { DomainError } from '@bookie/core';
import type { PartnerPrincipal } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import { hashSecret, isAllowed, PREFIX } from '../tenants/index.js';
import { findAccessToken } from './auth.repo.js';

function invalidToken(message: string): DomainError {
  return new DomainError('unauthorized', message, { error: 'invalid_token' });
}

/**
 * Checks a partner's bearer token, then its white label's allowlist (DECISIONS D27: token first, then the
 * address). The token is looked up on every request together with its credential's revocation and the
 * allowlist, so a revocation or an allowlist change applies to the next request.
 *
 * @param input.address - the client address (socket, or X-Forwarded-For through a trusted proxy).
 * @throws DomainError unauthorized (`details.error = "invalid_token"`): unknown, expired or revoked token.
 * @throws DomainError forbidden: a valid token from an address off the allowlist.
 */
export async function authenticatePartner(
  deps: Pick<PlatformServices, 'database' | 'clock'>,
  input: { token: string; address: string },
): Promise<PartnerPrincipal> {
  const found = await findAccessToken(deps.database.db, hashSecret(input.token));
  if (!found) {
    throw invalidToken(
      input.token.startsWith(PREFIX.sessionToken)
        ? 'a player session token is not accepted here'
        : 'unknown access token',
    );
  }
  if (new Date(found.expires_at).getTime() <= deps.clock.now()) throw invalidToken('access token expired');
  if (found.revoked_at !== null) throw invalidToken('the credential of this token was revoked');
  if (!isAllowed(found.allowlist, input.address)) {
    throw new DomainError('forbidden', `address ${input.address} is not on the white label's allowlist`, {
      address: input.address,
    });
  }
  return { whiteLabelId: found.white_label_id, credentialId: found.credential_id, clientId: found.client_id };
}
