/** The callbacks module's public surface: what other modules may use. */

export * from './callback-retention.js';
export * from './callbacks.repo.js';
export * from './callbacks.service.js';
export * from './enqueue-callbacks.js';
export * from './list-deliveries.js';
export * from './send-callback.js';
