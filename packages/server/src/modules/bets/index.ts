/**
 * The bets module's public surface: the bet aggregate other modules may use. Its repositories (bets.repo.ts,
 * bet-writes.repo.ts, bet-state.repo.ts) are the only writers of `bet`, `bet_selection` and `bet_builder`, and a bet changes state
 * only through a change core's table of bet states allows (docs/adr/0038-bet-owner.md).
 */
export * from './bet.js';
export * from './bet-events.js';
export * from './bet-state.repo.js';
export * from './bet-view.js';
export * from './bet-writes.repo.js';
export * from './bets.repo.js';
export * from './builder-rows.js';
export * from './callback-bodies.js';
export * from './catalog.js';
export * from './event-info.js';
export * from './order-view.js';
export * from './partner-bet-view.js';
export * from './selection-names.js';
