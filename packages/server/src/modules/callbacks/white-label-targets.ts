import { DomainError } from '@bookie/core';
import type { TenancyDeps } from '../tenants/deps.js';
import { getWhiteLabel } from '../tenants/get-white-label.js';
import { signerOf } from '../tenants/signing-for.js';
import type { CallbackTarget, CallbackTargets } from './send-callback.js';

/**
 * Callback targets read from the white labels: the announced callback URL and the signer (D11). Entries are
 * cached for `ttlMs` (default 1 s) so a busy dispatcher does not read the white label per callback; a changed
 * URL or a rotated secret applies within that time, in every process.
 */
export function whiteLabelTargets(deps: TenancyDeps, ttlMs = 1000): CallbackTargets {
  const cache = new Map<string, { at: number; target: Promise<CallbackTarget> }>();
  return {
    get(whiteLabelId) {
      const now = deps.clock.now();
      const hit = cache.get(whiteLabelId);
      if (hit && now - hit.at < ttlMs) return hit.target;
      const target = (async (): Promise<CallbackTarget> => {
        const wl = await getWhiteLabel(deps, whiteLabelId);
        if (!wl.callbackUrl) {
          throw new DomainError(
            'unavailable',
            `white label ${whiteLabelId} has announced no callback server URL`,
          );
        }
        const signer = signerOf(wl, () => deps.clock.now());
        return { url: wl.callbackUrl, sign: (id, body) => signer.headers(id, body) };
      })();
      cache.set(whiteLabelId, { at: now, target });
      target.catch(() => cache.delete(whiteLabelId));
      return target;
    },
  };
}
