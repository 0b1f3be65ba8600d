import { OPTIONAL_CALLBACK_OF_PATH } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { TenancyDeps, WhiteLabel } from '../tenants/index.js';
import { cachedWhiteLabels, signerOf } from '../tenants/index.js';
import type { CallbackTarget, CallbackTargets } from './send-callback.js';

/**
 * Callback targets read from the white labels: the announced callback URL and the signer (D11). Entries are
 * cached for `ttlMs` (default 1 s) so a busy dispatcher does not read the white label per callback; a changed
 * URL or a rotated secret applies within that time, in every process.
 */
export function whiteLabelTargets(deps: TenancyDeps, ttlMs = 1000): CallbackTargets {
  const whiteLabels = cachedWhiteLabels(deps, ttlMs);
  // one target per cached white label read: built once, not per delivery
  const targets = new WeakMap<WhiteLabel, CallbackTarget>();
  return {
    async get(whiteLabelId): Promise<CallbackTarget> {
      const wl = await whiteLabels.get(whiteLabelId);
      const known = targets.get(wl);
      if (known) return known;
      if (!wl.callbackUrl) {
        throw new DomainError(
          'unavailable',
          `white label ${whiteLabelId} has announced no callback server URL`,
        );
      }
      const signer = signerOf(wl, () => deps.clock.now());
      const unsupportedPaths = new Set(
        Object.entries(OPTIONAL_CALLBACK_OF_PATH)
          .filter(([, name]) => wl.optionalCallbacks[name].learnt === 'unsupported')
          .map(([path]) => path),
      );
      const target = {
        url: wl.callbackUrl,
        sign: (id: string, body: string) => signer.headers(id, body),
        unsupportedPaths,
      };
      targets.set(wl, target);
      return target;
    },
  };
}
