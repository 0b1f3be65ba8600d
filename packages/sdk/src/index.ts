/**
 * `@bookie/sdk`: what a Bookie partner installs (ARCHITECTURE "Packages").
 *
 * @packageDocumentation
 */

// callbacks: signing (DECISIONS D11), handler toolkit, REST client
export * from './signing.js';
