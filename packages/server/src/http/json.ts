import { validationError } from '@bookie/core';
import type { FastifyInstance } from 'fastify';

/** `["legs", 0, "stake"]` → `body.legs[0].stake`. */
function fieldOf(path: ReadonlyArray<string | number>, key?: string): string {
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

/** An object or array open while {@link keyProblem} scans: an object's keys so far, an array's current index. */
interface Open {
  keys: Set<string> | undefined;
  index: number;
  /** The key (object) just read, whose value comes next. */
  key: string | undefined;
  /** Where the container sits in its parent: the parent's key or index (undefined at the root). */
  at: string | number | undefined;
}

/**
 * The first duplicate key (one `JSON.parse` would silently resolve to the last) or prototype-poisoning key
 * (`__proto__`, `constructor.prototype`) of a text that is valid JSON, with the field that names it; one scan of
 * the text, keys compared as `JSON.parse` reads them (escapes resolved).
 */
function keyProblem(text: string): { field: string; reason: string } | undefined {
  const open: Open[] = [];
  const pathTo = () => open.slice(1).map((o) => o.at as string | number);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: a key when its object expects one
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i++;
        } else if (d === 0x22) break;
      }
      const top = open[open.length - 1];
      if (top?.keys && top.key === undefined) {
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        const path = pathTo();
        if (key === '__proto__' || (key === 'prototype' && path[path.length - 1] === 'constructor')) {
          return { field: fieldOf(path, key), reason: 'is not an allowed key' };
        }
        if (top.keys.has(key)) return { field: fieldOf(path, key), reason: 'duplicate key' };
        top.keys.add(key);
        top.key = key;
      }
    } else if (c === 0x7b || c === 0x5b) {
      const parent = open[open.length - 1];
      open.push({
        keys: c === 0x7b ? new Set() : undefined,
        index: 0,
        key: undefined,
        at: parent ? (parent.keys ? parent.key : parent.index) : undefined,
      });
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      const top = open[open.length - 1];
      if (top?.keys) top.key = undefined;
      else if (top) top.index++;
    }
  }
  return undefined;
}

/**
 * Parses a JSON request body strictly: the value comes from `JSON.parse` (so the syntax is exactly JSON),
 * then one scan refuses duplicate keys, which `JSON.parse` would silently resolve to the last one, and `__proto__` /
 * `constructor.prototype` keys (prototype poisoning). Before any of that, a body nested deeper than
 * {@link MAX_JSON_DEPTH} arrays/objects is refused, so no later recursive walk (schema validation, the MCP SDK) can
 * overflow the stack. Empty bodies are `undefined` (route schemas decide whether a body is required).
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
  if (typeof value !== 'object' || value === null) return value;
  const problem = keyProblem(text);
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
