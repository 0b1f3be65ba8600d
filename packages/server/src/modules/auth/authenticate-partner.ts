import { DomainError } from '@bookie/core';
import { GroupCommit } from '@bookie/storage';
import type { PartnerPrincipal } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import {
  hashSecret,
  isAllowed,
  PREFIX,
  whiteLabelChangedSince,
  whiteLabelChangeMark,
} from '../tenants/index.js';
import { type AccessTokenLookup, findAccessToken, findAccessTokens } from './auth.repo.js';

function invalidToken(message: string): DomainError {
  return new DomainError('unauthorized', message, { error: 'invalid_token' });
}

/** Finds an access token (with its credential's revocation and the allowlist) by its hash. */
export type AccessTokenFinder = (tokenHash: string) => Promise<AccessTokenLookup | undefined>;

/**
 * An {@link AccessTokenFinder} that reads the tokens of the partner requests arriving together in one statement
 * (as player sessions are, docs/adr/0012-placement-group-commit.md). Always reads the database: a revocation or an
 * allowlist change applies to the next request in every process.
 */
export function batchedAccessTokenLookup(deps: Pick<PlatformServices, 'database'>): AccessTokenFinder {
  const reads = new GroupCommit<string, AccessTokenLookup | undefined>(
    (hashes) => findAccessTokens(deps.database.db, hashes),
    { maxConcurrent: 4 },
  );
  return (tokenHash) => reads.submit(tokenHash);
}

/** Access tokens one process keeps at most (the oldest go first). */
const MAX_CACHED_TOKENS = 10_000;

/**
 * An {@link AccessTokenFinder} that keeps what `read` found for `ttlMs` (`ACCESS_TOKEN_CACHE_MS`): a partner's
 * requests then need no statement to know its token, while each request still checks the token's expiry, its
 * credential's revocation and the allowlist against what was read. A revocation or an allowlist change made
 * through this process applies to the next request (the token's white label changed after the read:
 * `whiteLabelChanged`); one made through another process within `ttlMs`. An unknown token is not kept (it is read
 * again: a token issued meanwhile is found). `ttlMs` 0 reads every request.
 */
export function cachedAccessTokenLookup(
  deps: Pick<PlatformServices, 'clock'>,
  read: AccessTokenFinder,
  ttlMs: number,
): AccessTokenFinder {
  if (ttlMs <= 0) return read;
  const cache = new Map<string, { at: number; mark: number; found: AccessTokenLookup }>();
  return async (tokenHash) => {
    const now = deps.clock.now();
    const hit = cache.get(tokenHash);
    if (hit) {
      if (now - hit.at < ttlMs && !whiteLabelChangedSince(hit.found.white_label_id, hit.mark))
        return hit.found;
      cache.delete(tokenHash);
    }
    // the mark is taken before the read: a change committed while it runs makes what it finds stale
    const mark = whiteLabelChangeMark();
    const found = await read(tokenHash);
    if (found) {
      if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value as string);
      cache.set(tokenHash, { at: now, mark, found });
    }
    return found;
  };
}

/**
 * Checks a partner's bearer token, then its white label's allowlist (DECISIONS D27: token first, then the
 * address). The token is looked up (`deps.lookup`: through this process's cache, {@link cachedAccessTokenLookup})
 * together with its credential's revocation and the allowlist; its expiry is checked on every request.
 *
 * @param input.address - the client address (socket, or X-Forwarded-For through a trusted proxy).
 * @throws DomainError unauthorized (`details.error = "invalid_token"`): unknown, expired or revoked token.
 * @throws DomainError forbidden: a valid token from an address off the allowlist.
 */
export async function authenticatePartner(
  deps: Pick<PlatformServices, 'database' | 'clock'> & { lookup?: AccessTokenFinder },
  input: { token: string; address: string },
): Promise<PartnerPrincipal> {
  const hash = hashSecret(input.token);
  const found = await (deps.lookup ? deps.lookup(hash) : findAccessToken(deps.database.db, hash));
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
