import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, type DatabaseTarget, migrateDirectory, openDatabase } from '@bookie/storage';
import type { WalletDB } from './schema.js';

/** The wallet's migrations (its own set, separate from Bookie's). */
export const WALLET_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens the wallet database and applies its pending migrations. */
export async function openWalletDatabase(target: DatabaseTarget): Promise<Database<WalletDB>> {
  const database = await openDatabase<WalletDB>(target);
  try {
    await migrateDirectory(database.db, WALLET_MIGRATIONS_DIR);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}
