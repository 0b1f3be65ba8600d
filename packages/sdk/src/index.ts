/**
 * `@bookie/sdk`: what a Bookie partner installs (ARCHITECTURE "Packages"):
 * - callbacks/: the callback handler toolkit (the callback contract, the rules in docs/decisions.md) and signing.ts (the callback signing rule);
 * - client/: the REST client (the player sessions rule, the partner tokens rule);
 * - feed/: FeedReplica, its stores, line framing, change paths (the feed contract, the feed rules).
 *
 * @packageDocumentation
 */
export * from './callbacks/index.js';
export * from './client/index.js';
export * from './feed/index.js';
export * from './signing.js';
