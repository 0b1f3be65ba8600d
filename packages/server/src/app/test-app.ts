import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { TEST_ADMIN_TOKEN } from '../testing/partner.js';
import { buildApp } from './app.js';
import { type AppDeps, buildDeps } from './wiring.js';

/** An in-process app on a test database, for `app.inject` tests. */
export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** Closes the app, stops background work and drops the database. */
  close(): Promise<void>;
}

/**
 * Builds the whole app on `database` (a migrated test database) with `env` settings (BOOKIE_ADMIN_TOKEN is
 * {@link TEST_ADMIN_TOKEN} unless given) and an optional clock. Add test-only routes before the first inject.
 * `keepDatabase` leaves the database open at close (several apps on one database).
 */
export async function createTestApp(
  database: Database & { close(): Promise<void> },
  opts: { env?: NodeJS.ProcessEnv; clock?: Clock; keepDatabase?: boolean } = {},
): Promise<TestApp> {
  const config = loadConfig({ BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'silent', ...opts.env });
  const deps = await buildDeps(config, {
    // keepDatabase: close() leaves the database open, for several apps on one test database
    database: opts.keepDatabase ? { ...database, close: async () => {} } : database,
    logger: pino({ level: 'silent' }),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const app = await buildApp(deps);
  return {
    app,
    deps,
    async close() {
      await app.close();
      await deps.lifecycle.stop();
    },
  };
}
