import { createHash } from 'node:crypto';
import { DomainError } from '@bookie/core';

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** SHA-256 of a request body with its keys sorted: a repeat with the same key must carry the same body. */
export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

/**
 * Checks an idempotent repeat (create is idempotent on idempotence_id): the same body answers the first
 * record; another body under the same key is a conflict.
 *
 * @throws DomainError conflict naming `idempotence_id`.
 */
export function assertSameRequest(stored: string | null, hash: string, idempotenceId: string): void {
  if (stored !== null && stored !== hash) {
    throw new DomainError(
      'conflict',
      `idempotence_id: ${idempotenceId} was already used with another request body`,
      { field: 'idempotence_id', idempotence_id: idempotenceId },
    );
  }
}
