import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from './database.js';
import { migrateDirectory } from './migrate.js';

/** A throwaway database for one test file; `close()` drops it. */
// biome-ignore lint/suspicious/noExplicitAny: the schema is the caller's
export interface TestDatabase<DB = any> extends Database<DB> {
  /** The Postgres URL of this database, when running on Postgres. */
  readonly url: string | undefined;
}

/**
 * Opens an isolated database: a fresh Postgres database when `DATABASE_URL` is set (created next to the
 * one named, dropped on close), else an in-memory PGlite; then applies the migrations of `migrationsDir`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the schema is the caller's
export async function createTestDatabase<DB = any>(
  opts: { migrationsDir?: string } = {},
): Promise<TestDatabase<DB>> {
  const base = process.env.DATABASE_URL;
  let database: Database<DB>;
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (base) {
    const name = `bookie_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
    database = await openDatabase<DB>({ url, poolSize: 5 });
    drop = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    };
  } else {
    database = await openDatabase<DB>({ dataDir: undefined });
  }
  if (opts.migrationsDir) await migrateDirectory(database.db, opts.migrationsDir);
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await drop?.();
    },
  };
}
