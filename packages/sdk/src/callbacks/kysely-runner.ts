/**
 * A {@link SqlRunner} over a Kysely instance, for {@link SqlIdempotencyStore}. Kept out of the SDK's main entry so
 * that only partners using Kysely load it: import it from `@bookie/sdk/callbacks/kysely-runner`.
 *
 * @packageDocumentation
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { SqlRunner } from './sql-store.js';

/**
 * Adapts a Kysely instance (on `pg` or PGlite) to {@link SqlRunner}: `transaction` is `db.transaction().execute`,
 * so the handler's `tx` is a Kysely `Transaction<DB>` it can write through; `statement` runs on the instance itself
 * (autocommit).
 */
export function kyselyRunner<DB>(db: Kysely<DB>): SqlRunner<Transaction<DB>> {
  return {
    transaction: (fn) => db.transaction().execute(fn),
    async query(tx, text, params) {
      const result = await tx.executeQuery(CompiledQuery.raw(text, [...params]));
      return result.rows as Record<string, unknown>[];
    },
    async statement(text, params) {
      const result = await db.executeQuery(CompiledQuery.raw(text, [...params]));
      return result.rows as Record<string, unknown>[];
    },
  };
}
