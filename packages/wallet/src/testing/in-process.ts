/**
 * The wallet in the test's own process, on a private test database (PGlite in memory, or a fresh Postgres database
 * when `DATABASE_URL` is set), listening on a loopback port: real HTTP without a child process.
 *
 * @packageDocumentation
 */
import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { WALLET_MIGRATIONS_DIR } from '../db/database.js';
import type { WalletDB } from '../db/schema.js';
import { buildWalletApp } from '../http/app.js';
import { type FaultConfig, Faults } from '../http/faults.js';
import { WalletApi } from './wallet-api.js';

/** A wallet started by {@link startTestWallet}. */
export interface TestWallet {
  url: string;
  api: WalletApi;
  app: FastifyInstance;
  database: TestDatabase<WalletDB>;
  faults: Faults;
  close(): Promise<void>;
}

/** Starts an in-process wallet on a private test database. */
export async function startTestWallet(
  options: {
    secret?: string;
    /** The currency of a callback without one; null declares none (as `bookie-wallet start` runs by default). */
    defaultCurrency?: string | null;
    faults?: Partial<FaultConfig>;
    strictCallbacks?: boolean;
    /** Wraps the database handle the wallet runs on (a test counting its statements). */
    wrapDb?: (db: Kysely<WalletDB>) => Kysely<WalletDB>;
    /** Called with the size of each transaction of callback statements (see `WalletAppDeps.onStatementFlush`). */
    onStatementFlush?: (size: number) => void;
  } = {},
): Promise<TestWallet> {
  const database = await createTestDatabase<WalletDB>({ migrationsDir: WALLET_MIGRATIONS_DIR });
  const faults = new Faults(options.faults);
  const app = await buildWalletApp({
    db: options.wrapDb ? options.wrapDb(database.db) : database.db,
    // as `bookie-wallet start` runs (Postgres), unless the test counts the statements on `db`
    ...(options.wrapDb || !database.statement ? {} : { statement: database.statement }),
    // the callbacks' statements grouped into shared transactions, as `bookie-wallet start` runs, on both databases
    ...(options.wrapDb
      ? {}
      : { statements: database.statements, onStatementFlush: options.onStatementFlush }),
    secrets: options.secret ? [options.secret] : [],
    ...(options.defaultCurrency === null ? {} : { defaultCurrency: options.defaultCurrency ?? 'EUR' }),
    faults,
    strictCallbacks: options.strictCallbacks ?? false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    url,
    api: new WalletApi(url),
    app,
    database,
    faults,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
