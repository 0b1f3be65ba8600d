import { createHash, randomUUID } from 'node:crypto';
import { DomainError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { type BonusTable, findByIdempotenceId } from './bonuses.repo.js';

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

/** Result of a create: 201 with a new record, or 200 with the record an earlier request with the same key made. */
export interface Created<T> {
  status: 200 | 201;
  record: T;
}

/** One kind of bonus as {@link createIdempotently} stores and answers it. */
export interface IdempotentKind<R, V> {
  table: BonusTable;
  /** The kind's name in the message of a record that was not stored. */
  name: string;
  find(db: Executor, whiteLabelId: string, id: string): Promise<R | undefined>;
  view(row: R, now: number): V;
}

/**
 * Creates one bonus record idempotently on the body's `idempotence_id`: a repeat with the same body answers the first
 * record (200), another body under the same key is a conflict; a concurrent request with the same key that won the
 * insert is answered the same way. `insert` validates the body and inserts the record under the id and request hash
 * it is given, returning false when the key was taken meanwhile.
 *
 * @throws DomainError conflict naming `idempotence_id`; whatever `insert` throws (validation_error naming the field).
 */
export async function createIdempotently<R, V>(
  deps: { db: Executor; now: number },
  kind: IdempotentKind<R, V>,
  whiteLabelId: string,
  body: { idempotence_id?: string },
  insert: (id: string, hash: string) => Promise<boolean>,
): Promise<Created<V>> {
  const { db, now } = deps;
  const hash = requestHash(body);
  const replay = async (): Promise<Created<V> | undefined> => {
    if (body.idempotence_id === undefined) return undefined;
    const seen = await findByIdempotenceId(db, kind.table, whiteLabelId, body.idempotence_id);
    if (!seen) return undefined;
    assertSameRequest(seen.request_hash, hash, body.idempotence_id);
    const row = await kind.find(db, whiteLabelId, seen.id);
    return row ? { status: 200, record: kind.view(row, now) } : undefined;
  };
  const seen = await replay();
  if (seen) return seen;
  const id = randomUUID();
  if (!(await insert(id, hash))) {
    const again = await replay();
    if (again) return again;
  }
  const row = await kind.find(db, whiteLabelId, id);
  if (!row) throw new DomainError('internal_error', `${kind.name} was not stored`);
  return { status: 201, record: kind.view(row, now) };
}
