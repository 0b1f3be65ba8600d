/** The cash-out module's public surface: what other modules may use. */
export * from './cash-out.repo.js';
export * from './rewrite-exposure.js';
