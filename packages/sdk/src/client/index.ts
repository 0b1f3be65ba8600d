/**
 * The partner's REST client for Bookie (the player sessions rule, the partner tokens rule): OAuth token caching, typed routes, retries.
 *
 * @packageDocumentation
 */
export * from './client.js';
export * from './errors.js';
export * from './partner-client.js';
export * from './repeat-policy.js';
export * from './token-cache.js';
