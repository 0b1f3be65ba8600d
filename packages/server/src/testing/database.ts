import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

/** A throwaway database for one test file; `close()` drops it. */
export interface TestDatabase extends Database {
  /** The Postgres URL of this database, when running on Postgres. */
  readonly url: string | undefined;
}

/**
 * Opens an isolated, migrated database: a fresh Postgres database when `DATABASE_URL` is set
 * (created next to the one named, dropped on close), else an in-memory PGlite.
 */
export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  let database: Database;
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
    database = await openDatabase({ url, poolSize: 5 });
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
    database = await openDatabase({ dataDir: undefined });
  }
  if (opts.migrate !== false) await migrateToLatest(database.db);
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await drop?.();
    },
  };
}
