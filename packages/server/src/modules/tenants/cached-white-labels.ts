import type { TenancyDeps } from './deps.js';
import { getWhiteLabel } from './get-white-label.js';
import type { WhiteLabel } from './white-label.js';

/**
 * White labels read through a short cache (default 1 s), for hot paths such as bet placement: a change made
 * through the admin API or the CLI applies within `ttlMs` in every process.
 */
export function cachedWhiteLabels(deps: TenancyDeps, ttlMs = 1000): { get(id: string): Promise<WhiteLabel> } {
  const cache = new Map<string, { at: number; wl: Promise<WhiteLabel> }>();
  return {
    get(id) {
      const now = deps.clock.now();
      const hit = cache.get(id);
      if (hit && now - hit.at < ttlMs) return hit.wl;
      const wl = getWhiteLabel(deps, id);
      cache.set(id, { at: now, wl });
      wl.catch(() => cache.delete(id));
      return wl;
    },
  };
}
