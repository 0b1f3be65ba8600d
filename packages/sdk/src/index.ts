/**
 * `@bookie/sdk`: what a Bookie partner installs (ARCHITECTURE "Packages"):
 * - callbacks/: the callback handler toolkit (spec 01, DECISIONS D7–D14) and signing.ts (D11);
 * - client/: the REST client (D26, D27);
 * - feed/: FeedReplica, its stores, line framing, change paths (spec 02, DECISIONS D21–D25).
 *
 * @packageDocumentation
 */
export * from './callbacks/index.js';
export * from './client/index.js';
export * from './feed/index.js';
export * from './signing.js';
