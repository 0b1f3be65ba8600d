/** The bonuses module's public surface: what other modules may use. */
export * from './bonuses.repo.js';
export * from './check-bonuses.js';
export * from './claim-bonuses.js';
export * from './deps.js';
export * from './get-bet-boost.js';
export * from './get-freebet.js';
export * from './get-insurance.js';
export * from './on-bets-settled.js';
export * from './release-bonuses.js';
export * from './reserve-bonuses.js';
