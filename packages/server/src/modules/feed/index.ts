/** The feed module's public surface: what other modules may use. */
export * from './feed.service.js';
export * from './log-hub.js';
