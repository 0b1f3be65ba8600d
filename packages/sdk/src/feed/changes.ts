/**
 * The path rules of `match_update` changes (the feed contract, "match_update changes", the change paths rule), shared by the server's
 * trading writer and every replica, so both apply a change the same way.
 *
 * @packageDocumentation
 */

/** Path segments that are never valid (prototype pollution guard, the change paths rule). */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A `changes` key that breaks the change paths rule, with the reason. */
export class ChangePathError extends Error {
  constructor(
    /** The offending key, as given. */
    public readonly path: string,
    /** Why it is rejected. */
    public readonly reason: string,
  ) {
    super(`changes["${path}"]: ${reason}`);
    this.name = 'ChangePathError';
  }
}

/**
 * Splits and checks one `changes` key (the change paths rule): `/`-separated, every segment non-empty, none of
 * `__proto__`, `constructor`, `prototype`.
 *
 * @throws ChangePathError naming the key.
 */
export function parseChangePath(path: string): string[] {
  const cached = pathCache.get(path);
  if (cached) return cached;
  const segments = checkPath(path);
  if (pathCache.size >= PATH_CACHE_MAX) pathCache.clear();
  pathCache.set(path, segments);
  return segments;
}

/** Paths repeat (`markets/<id>/odds/<id>/value`): checked ones are kept, up to this many. */
const PATH_CACHE_MAX = 100_000;
const pathCache = new Map<string, string[]>();

function checkPath(path: string): string[] {
  if (path.length === 0) throw new ChangePathError(path, 'the path is empty');
  const segments = path.split('/');
  for (const s of segments) {
    if (s.length === 0) throw new ChangePathError(path, 'a path segment is empty');
    if (FORBIDDEN_SEGMENTS.has(s)) throw new ChangePathError(path, `the segment "${s}" is not allowed`);
  }
  return segments;
}

function depth(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}

/**
 * The keys of `changes` in the order they must be applied: shallower paths before deeper ones (the change paths rule);
 * keys of equal depth keep their order.
 */
export function orderedChangeKeys(changes: Record<string, unknown>): string[] {
  const keys = Object.keys(changes);
  if (keys.length < 2) return keys;
  const depths = keys.map(depth);
  let sorted = true;
  for (let i = 1; i < depths.length; i++) {
    if ((depths[i] as number) < (depths[i - 1] as number)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return keys;
  return keys
    .map((k, i) => ({ k, d: depths[i] as number, i }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.k);
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Applies `changes` to `target` in place (the feed contract, the change paths rule): for each path, shallower first, sets the node to
 * the given value, creating missing intermediate objects. Values are stored by reference (callers pass freshly
 * parsed JSON).
 *
 * @param strict - when true (the writer), a path through a value that is not an object throws; when false (a
 *   replica), such a value is replaced by an object, so a replica never stops on an entry it cannot apply.
 * @throws ChangePathError for a key that breaks the change paths rule, or (strict) a path through a non-object.
 */
export function applyChanges(
  target: Record<string, unknown>,
  changes: Record<string, unknown>,
  strict = false,
): void {
  for (const key of orderedChangeKeys(changes)) {
    const segments = parseChangePath(key);
    let node: Record<string, unknown> = target;
    const last = segments.length - 1;
    for (let i = 0; i < last; i++) {
      const seg = segments[i] as string;
      const next = Object.hasOwn(node, seg) ? node[seg] : undefined;
      if (isPlainObject(next)) {
        node = next;
      } else {
        if (next !== undefined && strict) {
          throw new ChangePathError(key, `"${segments.slice(0, i + 1).join('/')}" is not an object`);
        }
        const created: Record<string, unknown> = {};
        node[seg] = created;
        node = created;
      }
    }
    node[segments[last] as string] = changes[key];
  }
}
