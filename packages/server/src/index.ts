/**
 * `@bookie/server`: the platform. Entry points are the `bookie` CLI (cli/) and {@link startServer}.
 */
export { buildApp } from './app/app.js';
export { type RunningServer, startServer } from './app/server.js';
export { type AppDeps, buildDeps } from './app/wiring.js';
export type { Database } from './db/database.js';
export { migrateToLatest } from './db/migrate.js';
export { type Config, ConfigError, loadConfig } from './platform/config.js';
