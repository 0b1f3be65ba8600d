/** The risk module's public surface: what other modules may use. */
export * from './bet-delay-for.js';
export * from './deps.js';
export * from './exposure.repo.js';
export * from './exposure-view.js';
export * from './leg-exposure.repo.js';
export * from './leg-units.js';
export * from './load-risk-state.js';
export * from './on-bets-settled.js';
export * from './player-risk.repo.js';
export * from './record-exposure.js';
export * from './risk-book.js';
export * from './risk-settings.repo.js';
