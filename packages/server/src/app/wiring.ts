import { openDatabase } from '@bookie/storage';
import pino from 'pino';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Authenticator } from '../http/auth.js';
import { createAuthenticator } from '../modules/auth/authenticator.js';
import { type CallbacksService, createCallbacksService } from '../modules/callbacks/callbacks.service.js';
import { CallbackSender } from '../modules/callbacks/send-callback.js';
import { whiteLabelTargets } from '../modules/callbacks/white-label-targets.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { Lifecycle } from './lifecycle.js';

/**
 * Everything a module needs, built once at start and passed down (no globals). Modules add their own
 * services to this object in {@link buildDeps} as they land.
 */
export interface AppDeps {
  config: Config;
  database: Database;
  logger: pino.Logger;
  clock: Clock;
  lifecycle: Lifecycle;
  /** Partner and player authentication (the tenancy module provides it). */
  authenticator?: Authenticator;
  /** The callback outbox: targets, HTTP sender and dispatcher (started by {@link startBackground}). */
  callbacks: CallbacksService;
}

/** Options for {@link buildDeps}; tests pass an open database and a silent logger. */
export interface BuildDepsOptions {
  database?: Database;
  logger?: pino.Logger;
  clock?: Clock;
}

/** Opens the database, applies migrations, and builds the dependencies. */
export async function buildDeps(config: Config, opts: BuildDepsOptions = {}): Promise<AppDeps> {
  const logger = opts.logger ?? pino({ level: config.logLevel, base: { svc: 'bookie' } });
  const database =
    opts.database ??
    (await openDatabase(
      config.databaseUrl
        ? { url: config.databaseUrl, poolSize: config.dbPoolSize }
        : { dataDir: config.dataDir },
    ));
  const lifecycle = new Lifecycle();
  lifecycle.onStop('database', () => database.close());
  const applied = await migrateToLatest(database.db);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const clock = opts.clock ?? systemClock;
  const sender = new CallbackSender({ timeoutMs: config.callbacks.timeoutMs });
  lifecycle.onStop('callback sender', () => sender.close());
  const callbacks = createCallbacksService(database, whiteLabelTargets({ database, clock }), sender, logger, {
    concurrency: config.callbacks.concurrency,
    leaseMs: config.callbacks.leaseMs,
    pollMs: config.callbacks.pollMs,
  });
  return {
    config,
    database,
    logger,
    clock,
    lifecycle,
    authenticator: createAuthenticator({ database, clock }),
    callbacks,
  };
}

/** Starts the background work of this process (the outbox dispatcher, …); each registers its stop. */
export async function startBackground(deps: AppDeps): Promise<void> {
  await deps.callbacks.dispatcher.start();
  deps.lifecycle.onStop('callback dispatcher', () => deps.callbacks.dispatcher.stop());
}
