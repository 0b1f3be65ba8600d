import { openDatabase } from '@bookie/storage';
import { Command } from 'commander';
import { migrateToLatest } from '../db/migrate.js';
import { loadConfig } from '../platform/config.js';
import { action, printJson } from './io.js';
import { databaseOptions } from './options.js';
import { callAdmin, type RemoteFlags, remoteOptions } from './remote.js';

/**
 * `bookie migrate`: applies pending migrations and prints their names; with `--url`, through a running server's
 * admin API (the server migrates its database when it starts, so that answers what a newer process found pending).
 */
export function migrateCommand(): Command {
  return remoteOptions(
    databaseOptions(new Command('migrate').description('apply pending database migrations')),
  ).action(
    action(async (opts: RemoteFlags & { dbUrl?: string; dataDir?: string }) => {
      if (opts.url) {
        printJson(await callAdmin(opts, 'POST', '/admin/migrations'));
        return;
      }
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
