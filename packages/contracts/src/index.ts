/**
 * `@bookie/contracts`: wire formats as TypeBox schemas (ARCHITECTURE "Packages").
 *
 * @packageDocumentation
 */

// bet builders: available selections and the calculator (DECISIONS D59)
export * from './bet-builder.js';
export * from './bonuses.js';
export * from './callbacks.js';
export * from './cash-out.js';
export * from './decimal.js';
// example bodies and answers, attached to the schemas above (shown in the OpenAPI document)
export { EXAMPLED_SCHEMAS } from './examples.js';
// trading feed (the feed contract, the feed rules)
export * from './feed.js';
export * from './frame.js';
// integration environment (the environments and tools rule, the environments and tools rule)
export * from './integration.js';
// partner-reported bets: the risk management mode and the advisory mode
export * from './mts.js';
// optional callbacks as capabilities of a white label
export * from './optional-callbacks.js';
export * from './outbox.js';
export * from './partner-rest.js';
export * from './risk.js';
export * from './sport-event.js';
// the status numbers with their names, and the sentences texts build from them
export * from './status-codes.js';
// where a text pairs a status number with a name, and whether the table agrees
export * from './status-mentions.js';
export * from './tenancy.js';
export * from './text.js';
export * from './users.js';
