import { openDatabase } from '@bookie/storage';
import { Command } from 'commander';
import { loadConfig } from '../app/config.js';
import { migrateToLatest } from '../db/migrate.js';
import { action, printJson } from './io.js';
import { databaseOptions } from './options.js';

/** `bookie migrate`: applies pending migrations and prints their names. */
export function migrateCommand(): Command {
  return databaseOptions(new Command('migrate').description('apply pending database migrations')).action(
    action(async (opts: { dbUrl?: string; dataDir?: string }) => {
      const config = loadConfig(process.env, opts);
      const database = await openDatabase(
        config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir },
      );
      try {
        const applied = await migrateToLatest(database.db);
        printJson({ applied });
      } finally {
        await database.close();
      }
    }),
  );
}
