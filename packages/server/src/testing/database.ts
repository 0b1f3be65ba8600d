import { createTestDatabase as create, type TestDatabase as StorageTestDatabase } from '@bookie/storage';
import { MIGRATIONS_DIR } from '../db/migrate.js';
import type { DB } from '../db/schema.js';

/** A throwaway server database for one test file; `close()` drops it. */
export type TestDatabase = StorageTestDatabase<DB>;

/** Opens an isolated server database (Postgres when DATABASE_URL is set, else PGlite), migrated unless told not to. */
export function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  return create<DB>(opts.migrate === false ? {} : { migrationsDir: MIGRATIONS_DIR });
}
