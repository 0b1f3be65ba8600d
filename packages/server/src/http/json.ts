import { validationError } from '@bookie/core';
import type { FastifyInstance } from 'fastify';
import { type JSONPath, visit } from 'jsonc-parser';

/** `["legs", 0, "stake"]` → `body.legs[0].stake`. */
function fieldOf(path: JSONPath, key?: string): string {
  let out = 'body';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${p}`;
  return key === undefined ? out : `${out}.${key}`;
}

/**
 * Parses a JSON request body strictly: the value comes from `JSON.parse` (so the syntax is exactly JSON),
 * then one scan (jsonc-parser's visitor) refuses duplicate keys, which `JSON.parse` would silently resolve to
 * the last one, and `__proto__` / `constructor.prototype` keys (prototype poisoning). Empty bodies are
 * `undefined` (route schemas decide whether a body is required).
 *
 * @throws DomainError validation_error naming the field, e.g. `body.legs[0].stake: duplicate key`.
 */
export function parseStrictJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw validationError('body', `invalid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null) return value;
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
