import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateDirectory } from '@bookie/storage';
import type { Kysely } from 'kysely';

/** The server's migrations: packages/server/src/db/migrations/NNNN_name.ts. */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies every pending server migration; returns the names applied. */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
export function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return migrateDirectory(db, MIGRATIONS_DIR);
}
