/**
 * The partner's callback toolkit (the callback contract, the rules in docs/decisions.md): typed handler, idempotency stores, the callback errors rule error helpers,
 * Foreign-Params parsing and adapters for Node http, Fastify and Express. The Kysely runner of the SQL store is a
 * separate entry: `@bookie/sdk/callbacks/kysely-runner`.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './express-adapter.js';
export * from './fastify-adapter.js';
export * from './foreign-params.js';
export * from './handler.js';
export * from './idempotency.js';
export * from './lenient.js';
export * from './memory-store.js';
export * from './node-adapter.js';
export * from './sql-store.js';
export * from './types.js';
