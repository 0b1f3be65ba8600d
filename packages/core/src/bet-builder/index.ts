/**
 * The bet builder's pricing model (DECISIONS D59; docs/adr/0042-bet-builder-pricing.md): a football score model
 * fitted to an event's margin-free odds, the inner legs it prices (markets decided by the final score), and the
 * builder calculator.
 *
 * @packageDocumentation
 */
export * from './builder.js';
export * from './fit.js';
export * from './football-markets.js';
export * from './score-model.js';
