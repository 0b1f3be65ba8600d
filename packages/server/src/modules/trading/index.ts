/** The trading module's public surface: what other modules may use. */
export * from './closing-odds.repo.js';
export * from './get-sport-event.js';
export * from './patch-markets.js';
export * from './refetch-sport-event.js';
export * from './trading.repo.js';
export * from './writer.js';
