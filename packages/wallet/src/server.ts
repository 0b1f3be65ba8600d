import type { Database } from '@bookie/storage';
import type { FastifyInstance } from 'fastify';
import type { WalletConfig } from './config.js';
import { openWalletDatabase } from './db/database.js';
import type { WalletDB } from './db/schema.js';
import { buildWalletApp } from './http/app.js';
import { Faults } from './http/faults.js';

/** A running wallet. */
export interface RunningWallet {
  app: FastifyInstance;
  database: Database<WalletDB>;
  faults: Faults;
  url: string;
  /** Stops accepting, finishes in-flight requests, closes the database (idempotent). */
  stop(): Promise<void>;
}

/** Opens the database (migrated), builds the app and listens. */
export async function startWallet(
  config: WalletConfig,
  options: { logger?: boolean | object } = {},
): Promise<RunningWallet> {
  const database = await openWalletDatabase(config.database);
  const faults = new Faults(config.faults);
  let app: FastifyInstance;
  try {
    app = await buildWalletApp({
      db: database.db,
      statement: database.statement,
      statements: database.statements,
      secrets: config.secrets,
      defaultCurrency: config.defaultCurrency,
      faults,
      adminToken: config.adminToken,
      logger: options.logger ?? { level: config.logLevel },
    });
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close();
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let stopped: Promise<void> | undefined;
  return {
    app,
    database,
    faults,
    url: `http://${host}:${port}`,
    stop() {
      stopped ??= (async () => {
        await app.close();
        await database.close();
      })();
      return stopped;
    },
  };
}
