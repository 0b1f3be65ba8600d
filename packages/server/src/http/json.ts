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
  return scanJson(text, limit) < 0;
}

/**
 * One scan of a JSON text's brackets and colons outside strings: -1 as soon as the nesting passes `limit`, else the
 * number of colons, which in valid JSON is the number of object members (each `"key": value` has one).
 */
function scanJson(text: string, limit: number): number {
  let depth = 0;
  let colons = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) colons++;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return -1;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return colons;
}

/**
 * The members of a parsed JSON value's objects, counted, or -1 when a key is one the strict parse refuses
 * (`__proto__`, `prototype` in a `constructor`). `JSON.parse` keeps one member per distinct key, so a text with a
 * duplicate key has more members than its value.
 */
function membersOf(value: unknown, parentKey: string | undefined): number {
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) {
      const m = membersOf(v, undefined);
      if (m < 0) return -1;
      n += m;
    }
    return n;
  }
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || (key === 'prototype' && parentKey === 'constructor')) return -1;
    const m = membersOf((value as Record<string, unknown>)[key], key);
    if (m < 0) return -1;
    n += m + 1;
  }
  return n;
}

/**
 * Parses a JSON request body strictly: the value comes from `JSON.parse` (so the syntax is exactly JSON),
 * then duplicate keys, which `JSON.parse` would silently resolve to the last one, and `__proto__` /
 * `constructor.prototype` keys (prototype poisoning) are refused: a value with as many object members as the text and
 * none of those keys is answered at once; otherwise one scan (jsonc-parser's visitor) names the field. Before any of that, a body
 * nested deeper than {@link MAX_JSON_DEPTH} arrays/objects is refused, so no later recursive walk (the key scan,
 * schema validation, the MCP SDK) can overflow the stack. Empty bodies are
 * `undefined` (route schemas decide whether a body is required).
 *
 * @throws DomainError validation_error naming the field, e.g. `body.legs[0].stake: duplicate key`, or `body` for
 * a body that is not JSON or is nested too deep.
 */
export function parseStrictJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  const members = scanJson(text, MAX_JSON_DEPTH);
  if (members < 0) {
    throw validationError('body', `nested deeper than ${MAX_JSON_DEPTH} arrays or objects`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw validationError('body', `invalid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null) return value;
  // as many members in the value as in the text and no refused key: no duplicate, nothing to name
  if (membersOf(value, undefined) === members) return value;
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
