import type { SportEvent } from '@bookie/contracts';
import { compare, parseDecimal } from '@bookie/core/decimal';

/** Odds as an exact decimal (a price that cannot be read throws). */
export const exact = (v: string) => parseDecimal(v, { field: 'odds', maxDecimals: 12 });

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let o = target;
  for (const k of path.slice(0, -1)) {
    const next = o[k];
    if (typeof next !== 'object' || next === null) return; // a change to a market the snapshot lacks
    o[k] = Array.isArray(next) ? [...next] : { ...(next as object) };
    o = o[k] as Record<string, unknown>;
  }
  o[path[path.length - 1]!] = value;
}

/**
 * An event with the stream's `changes` (paths like `markets/<market>/odds/<odd>/value` → the new value) applied,
 * and the odds that moved, keyed `<event>/<market>/<odd>`, with the direction.
 */
export function applyOddsChanges(
  e: SportEvent,
  changes: Record<string, unknown>,
): { next: SportEvent; moved: Record<string, 'up' | 'down'> } {
  const next = { ...e } as unknown as Record<string, unknown>;
  const moved: Record<string, 'up' | 'down'> = {};
  for (const [path, value] of Object.entries(changes)) {
    const parts = path.split('/');
    // markets/<market>/odds/<odd>/value
    if (parts.length === 5 && parts[2] === 'odds' && parts[4] === 'value') {
      const old = e.markets[parts[1]!]?.odds[parts[3]!]?.value;
      if (old !== undefined && typeof value === 'string')
        moved[`${e.id}/${parts[1]}/${parts[3]}`] = compare(exact(value), exact(old)) > 0 ? 'up' : 'down';
    }
    setPath(next, parts, value);
  }
  return { next: next as unknown as SportEvent, moved };
}
