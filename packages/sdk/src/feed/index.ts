/**
 * The SDK's trading feed client (the feed contract): {@link FeedReplica} and its pieces.
 *
 * @packageDocumentation
 */
export * from './changes.js';
export * from './lines.js';
export * from './replica.js';
export * from './stores.js';
