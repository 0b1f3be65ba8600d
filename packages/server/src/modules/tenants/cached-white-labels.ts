import type { TenancyDeps } from './deps.js';
import { getWhiteLabel } from './get-white-label.js';
import type { WhiteLabel } from './white-label.js';

/** This process's count of white label changes, and the count at each white label's last change here. */
let changes = 0;
const changedAt = new Map<string, number>();

/**
 * Tells this process's white label caches that `id` changed (called after the change committed): their next read of
 * it goes to the database instead of serving what they read before. Other processes see the change within their
 * caches' time to live.
 */
export function whiteLabelChanged(id: string): void {
  changes += 1;
  changedAt.set(id, changes);
}

/**
 * This process's mark of white label changes, taken before a read of something that depends on a white label (its
 * allowlist, its credentials): {@link whiteLabelChangedSince} tells later whether what was read may be stale.
 */
export function whiteLabelChangeMark(): number {
  return changes;
}

/** Whether white label `id` changed in this process after `mark` ({@link whiteLabelChangeMark}) was taken. */
export function whiteLabelChangedSince(id: string, mark: number): boolean {
  return (changedAt.get(id) ?? 0) > mark;
}

/**
 * White labels read through a short cache (default 1 s), for hot paths such as bet placement. A change made through
 * this process's admin API or use cases applies at once in this process ({@link whiteLabelChanged}); one made in
 * another process (the CLI, another Bookie process) applies within `ttlMs`.
 */
export function cachedWhiteLabels(deps: TenancyDeps, ttlMs = 1000): { get(id: string): Promise<WhiteLabel> } {
  const cache = new Map<string, { at: number; seen: number; wl: Promise<WhiteLabel> }>();
  return {
    get(id) {
      const now = deps.clock.now();
      const hit = cache.get(id);
      if (hit && now - hit.at < ttlMs && !whiteLabelChangedSince(id, hit.seen)) return hit.wl;
      const wl = getWhiteLabel(deps, id);
      cache.set(id, { at: now, seen: changes, wl });
      wl.catch(() => cache.delete(id));
      return wl;
    },
  };
}
