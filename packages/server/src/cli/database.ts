import { existsSync } from 'node:fs';
import { openDatabase } from '@bookie/storage';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { type Config, ConfigError, loadConfig } from '../platform/config.js';

/** The database options every command that opens the database takes. */
export interface DatabaseFlags {
  dbUrl?: string;
  dataDir?: string;
}

/**
 * Opens the database named by the flags and the environment (as `bookie start` would), applies pending
 * migrations, runs `fn`, and closes the database.
 *
 * @throws ConfigError (`--data-dir`) when the embedded database's data directory does not exist: only `bookie start`
 *   and `bookie migrate` create one; any other command pointed at the wrong folder would act on an empty new book.
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
  if (!config.databaseUrl && config.dataDir && !existsSync(config.dataDir)) {
    throw new ConfigError(
      flags.dataDir !== undefined
        ? '--data-dir'
        : process.env.BOOKIE_DATA_DIR
          ? 'BOOKIE_DATA_DIR'
          : '--data-dir',
      `no Bookie data directory at ${config.dataDir} (only bookie start and bookie migrate create one): run this ` +
        'command where bookie start ran, give its --data-dir, or act through the running server with --url',
    );
  }
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
