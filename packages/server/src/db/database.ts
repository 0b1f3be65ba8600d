import type { Database as StorageDatabase } from '@bookie/storage';
import { sql } from 'kysely';
import type { DB } from './schema.js';

/** The server's database handle, typed with its schema. */
export type Database = StorageDatabase<DB>;

/** The database's own clock, `now()`, as a column value (the time of the transaction). */
export const dbNow = sql<Date>`now()`;

/** Answers when the database does (`select 1`): the readiness check. */
export async function pingDatabase(database: Database): Promise<void> {
  await sql`select 1`.execute(database.db);
}
