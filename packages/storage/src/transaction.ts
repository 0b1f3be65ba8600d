import type { Kysely, Transaction } from 'kysely';

/** A handle a repository can run on: the database itself or an open transaction. */
export type Executor<DB> = Kysely<DB> | Transaction<DB>;

/** Runs `fn` in one transaction: everything it writes commits together or not at all. */
export function inTransaction<DB, T>(db: Kysely<DB>, fn: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}
