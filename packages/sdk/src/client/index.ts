/**
 * The partner's REST client for Bookie (DECISIONS D26, D27): OAuth token caching, typed routes, retries.
 *
 * @packageDocumentation
 */
export * from './client.js';
export * from './errors.js';
export * from './partner-client.js';
export * from './token-cache.js';
