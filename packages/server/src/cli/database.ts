import { openDatabase } from '@bookie/storage';
import { type Config, loadConfig } from '../app/config.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

/** The database options every command that opens the database takes. */
export interface DatabaseFlags {
  dbUrl?: string;
  dataDir?: string;
}

/**
 * Opens the database named by the flags and the environment (as `bookie start` would), applies pending
 * migrations, runs `fn`, and closes the database.
 */
export async function withDatabase<T>(
  flags: DatabaseFlags,
  fn: (database: Database, config: Config) => Promise<T>,
): Promise<T> {
  // only the database flags: a subcommand's own options (e.g. `bookie user create --role`) are not server settings
  const config = loadConfig(process.env, {
    ...(flags.dbUrl !== undefined ? { dbUrl: flags.dbUrl } : {}),
    ...(flags.dataDir !== undefined ? { dataDir: flags.dataDir } : {}),
  });
  const database: Database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: 2 } : { dataDir: config.dataDir },
  );
  try {
    await migrateToLatest(database.db);
    return await fn(database, config);
  } finally {
    await database.close();
  }
}
