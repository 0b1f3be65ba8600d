import { type Authenticator, bearerToken, challenge } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import {
  assertCertificateOf,
  authenticateCertificate,
  clientCertificateFingerprint,
} from './authenticate-certificate.js';
import {
  authenticatePartner,
  batchedAccessTokenLookup,
  cachedAccessTokenLookup,
} from './authenticate-partner.js';
import { authenticatePlayer, batchedSessionLookup } from './authenticate-player.js';

/**
 * The Authenticator of `app.requirePartner` / `app.requirePlayer` (http/auth.ts): bearer tokens per RFC 6750,
 * partner access tokens (kept `accessTokenCacheMs`, {@link cachedAccessTokenLookup}) checked against expiry,
 * revocation and then the allowlist (client address = `request.ip`,
 * which honours X-Forwarded-For only from `TRUSTED_PROXIES`), player session tokens (D26). On routes marked
 * `config.certificateAuth` (the feed), a client certificate bound to a white label is enough without a token; with a
 * token, a certificate bound to another white label is refused.
 */
export function createAuthenticator(
  deps: Pick<PlatformServices, 'database' | 'clock'>,
  opts: { accessTokenCacheMs: number },
): Authenticator {
  const players = { ...deps, lookup: batchedSessionLookup(deps) };
  const partners = {
    ...deps,
    lookup: cachedAccessTokenLookup(deps, batchedAccessTokenLookup(deps), opts.accessTokenCacheMs),
  };
  return {
    async partner(request, reply) {
      const fingerprint = clientCertificateFingerprint(request);
      if (fingerprint && !request.headers.authorization && request.routeOptions.config?.certificateAuth) {
        return authenticateCertificate(deps, { fingerprint, address: request.ip });
      }
      const token = bearerToken(request, reply);
      try {
        const principal = await authenticatePartner(partners, { token, address: request.ip });
        if (fingerprint)
          await assertCertificateOf(deps, { fingerprint, whiteLabelId: principal.whiteLabelId });
        return principal;
      } catch (err) {
        challenge(reply, err);
        throw err;
      }
    },
    async player(request, reply) {
      const token = bearerToken(request, reply);
      try {
        return await authenticatePlayer(players, { token });
      } catch (err) {
        challenge(reply, err);
        throw err;
      }
    },
  };
}
