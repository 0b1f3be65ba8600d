import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DomainError } from '@bookie/core';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_FILE = /^\d{4}_[a-z0-9_-]+\.ts$/;

/** Loads every `NNNN_name.ts` file of db/migrations, in name order. */
class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => MIGRATION_FILE.test(f))
      .sort();
    for (const file of files) {
      const mod = (await import(pathToFileURL(join(MIGRATIONS_DIR, file)).href)) as Migration;
      out[file.replace(/\.ts$/, '')] = mod;
    }
    return out;
  }
}

/** Applies every pending migration; returns the names applied. Throws DomainError('internal_error') on failure. */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new DirectoryMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new DomainError(
      'internal_error',
      `migration ${failed ?? '?'} failed: ${(error as Error).message}`,
      {
        migration: failed,
      },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
