/**
 * `@bookie/core`: the pure domain core of Bookie (ARCHITECTURE "Packages"). No I/O, no clock, no randomness.
 *
 * @packageDocumentation
 */
export * from './errors.js';
