/**
 * `@bookie/sdk`: what a Bookie partner installs (ARCHITECTURE "Packages").
 *
 * @packageDocumentation
 */

// callbacks: signing (DECISIONS D11), handler toolkit, REST client
export * from './callbacks/index.js';
export * from './client/index.js';
export * from './signing.js';

// feed: FeedReplica, its stores, line framing, change paths (spec 02, DECISIONS D21–D25)
export * from './feed/index.js';
