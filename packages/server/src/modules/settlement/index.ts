/** The settlement module's public surface: what other modules may use. */
export * from './deps.js';
export * from './operator-actions/cancel-bet-before-settlement.js';
export * from './refresh-transition.js';
export * from './results/decide.js';
export * from './results/refresh-bets.js';
export * from './results/remaining-stake.js';
export * from './settlement.repo.js';
export * from './settlement-reports.repo.js';
