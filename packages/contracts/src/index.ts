/**
 * `@bookie/contracts`: wire formats as TypeBox schemas (ARCHITECTURE "Packages").
 *
 * @packageDocumentation
 */
export * from './callbacks.js';
