import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DomainError } from '@bookie/core';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

/** A migration: `NNNN_name.ts`, or `NNNN_name.js` as the build compiles it (never a `.d.ts`). */
const MIGRATION_FILE = /^\d{4}_[a-z0-9_-]+\.(ts|js)$/;

/** Loads every `NNNN_name.ts` (or compiled `.js`) file of a directory, in name order. */
class DirectoryMigrationProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    const files = readdirSync(this.dir)
      .filter((f) => MIGRATION_FILE.test(f))
      .sort();
    for (const file of files) {
      const mod = (await import(pathToFileURL(join(this.dir, file)).href)) as Migration;
      out[file.replace(/\.(ts|js)$/, '')] = mod;
    }
    return out;
  }
}

/**
 * Applies every pending migration found in `dir` (files `NNNN_name.ts` exporting `up` and `down`);
 * returns the names applied. Throws DomainError('internal_error') naming the failed migration.
 */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema
export async function migrateDirectory(db: Kysely<any>, dir: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new DirectoryMigrationProvider(dir) });
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
