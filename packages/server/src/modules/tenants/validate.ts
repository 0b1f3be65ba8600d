import { validationError } from '@bookie/core';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** `/limits/min_stake` → `limits.min_stake`, `/allowlist/0` → `allowlist[0]`. */
function fieldOf(path: string, root: string): string {
  const parts = path.split('/').filter(Boolean);
  let out = root;
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || root || 'input';
}

/**
 * Checks `value` against a contracts schema, so that the CLI and the admin API validate alike; throws
 * `validation_error` naming the first offending field (unknown fields included).
 */
export function checkSchema<T extends TSchema>(schema: T, value: unknown, root = ''): void {
  const first = Value.Errors(schema, value).First();
  if (!first) return;
  throw validationError(fieldOf(first.path, root), first.message);
}
