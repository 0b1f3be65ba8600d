import { validationError } from '@bookie/core';
import type { FastifyInstance } from 'fastify';
import { type JSONPath, visit } from 'jsonc-parser';

/** `["legs", 0, "stake"]` → `body.legs[0].stake`. */
function fieldOf(path: JSONPath, key?: string): string {
  let out = 'body';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${p}`;
  return key === undefined ? out : `${out}.${key}`;
}

/** The deepest nesting of arrays and objects a JSON body may have (docs/adr/0030-hostile-input.md). */
export const MAX_JSON_DEPTH = 64;

/**
 * The nesting depth of a JSON text, counted by one scan of its brackets outside strings, stopping as soon as it
 * passes `limit` (so a body of 100,000 nested arrays costs one short scan, never a deep recursion). The text need not
 * be valid JSON: `JSON.parse` judges that afterwards.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Keys an object may have before the quick scan leaves it to the full one (its key list is searched linearly). */
const QUICK_SCAN_KEYS = 64;

/**
 * One quick scan of a JSON text `JSON.parse` accepted: true when the full key scan of {@link parseStrictJson} has
 * something to look at — a duplicate key, a `__proto__` or `prototype` key, or an object of more than
 * {@link QUICK_SCAN_KEYS} keys — false when no key can be refused. It allocates one list of keys per object and
 * decodes a key only when it holds an escape.
 */
export function keysNeedFullScan(text: string): boolean {
  const stack: Array<string[] | null> = [];
  let keys: string[] | null = null;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      if (expectKey && keys !== null) {
        const key: string = escaped ? JSON.parse(text.slice(start, i + 1)) : text.slice(start + 1, i);
        if (
          key === '__proto__' ||
          key === 'prototype' ||
          keys.length >= QUICK_SCAN_KEYS ||
          keys.includes(key)
        ) {
          return true;
        }
        keys.push(key);
        expectKey = false;
      }
    } else if (c === 0x7b) {
      stack.push(keys);
      keys = [];
      expectKey = true;
    } else if (c === 0x5b) {
      stack.push(keys);
      keys = null;
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      keys = stack.pop() ?? null;
      expectKey = false;
    } else if (c === 0x2c) expectKey = keys !== null;
  }
  return false;
}

/**
 * Parses a JSON request body strictly: the value comes from `JSON.parse` (so the syntax is exactly JSON),
 * then one scan (a quick one, {@link keysNeedFullScan}, and jsonc-parser's visitor only when that finds a key to look
 * at) refuses duplicate keys, which `JSON.parse` would silently resolve to
 * the last one, and `__proto__` / `constructor.prototype` keys (prototype poisoning). Before any of that, a body
 * nested deeper than {@link MAX_JSON_DEPTH} arrays/objects is refused, so no later recursive walk (the key scan,
 * schema validation, the MCP SDK) can overflow the stack. Empty bodies are
 * `undefined` (route schemas decide whether a body is required).
 *
 * @throws DomainError validation_error naming the field, e.g. `body.legs[0].stake: duplicate key`, or `body` for
 * a body that is not JSON or is nested too deep.
 */
export function parseStrictJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw validationError('body', `nested deeper than ${MAX_JSON_DEPTH} arrays or objects`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw validationError('body', `invalid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || !keysNeedFullScan(text)) return value;
  const stack: Set<string>[] = [];
  let problem: { field: string; reason: string } | undefined;
  visit(
    text,
    {
      onObjectBegin: () => {
        stack.push(new Set());
      },
      onObjectEnd: () => {
        stack.pop();
      },
      onObjectProperty: (property, _o, _l, _sl, _sc, pathSupplier) => {
        if (problem) return;
        const keys = stack[stack.length - 1];
        const path = pathSupplier();
        if (
          property === '__proto__' ||
          (property === 'prototype' && path[path.length - 1] === 'constructor')
        ) {
          problem = { field: fieldOf(path, property), reason: 'is not an allowed key' };
        } else if (keys?.has(property)) {
          problem = { field: fieldOf(path, property), reason: 'duplicate key' };
        } else keys?.add(property);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  if (problem) throw validationError(problem.field, problem.reason);
  return value;
}

/** Replaces Fastify's JSON parser with {@link parseStrictJson}; errors become 400 validation_error. */
export function installStrictJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseStrictJson(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
