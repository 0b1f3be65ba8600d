/** The mts module's public surface: what other modules may use. */
export * from './mts.repo.js';
export * from './partner-bet.js';
export * from './report-bet.js';
