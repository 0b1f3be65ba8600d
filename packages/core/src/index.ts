/**
 * `@bookie/core`: the pure domain core of Bookie (ARCHITECTURE "Packages"): exact decimals, bet types and
 * combinations, the bet-acceptance rule, restrictions, odds strategies, settlement, freebet / insurance / boost rules,
 * cash-out value, bet delay and the bet calculator. No I/O, no clock, no randomness; runs in Node and the browser.
 *
 * @packageDocumentation
 */
export * from './acceptance.js';
export * from './bet-builder/index.js';
export * from './bet-decision.js';
export * from './bet-delay.js';
export * from './bet-lifecycle.js';
export * from './bet-types.js';
export * from './bonus-conditions.js';
export * from './bounded-memo.js';
export * from './builder-settlement.js';
export * from './calc.js';
export * from './cash-out.js';
export * from './condition-matching.js';
export * from './conditions.js';
export * from './decimal.js';
export * from './errors.js';
export * from './exposure.js';
export * from './feed-template.js';
export * from './insurance.js';
export * from './odds-format.js';
export * from './odds-shading.js';
export * from './odds-strategy.js';
export * from './restrictions.js';
export * from './risk-score.js';
export * from './settlement.js';
export * from './settlement-ledger.js';
export * from './statuses.js';
