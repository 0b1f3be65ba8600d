import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

/** A handle a repository can run on: the database itself or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

/** Runs `fn` in one transaction: everything it writes commits together or not at all. */
export function inTransaction<T>(db: Kysely<DB>, fn: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}
