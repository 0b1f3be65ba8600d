/** The auth module's public surface: what other modules may use. */
export * from './auth.repo.js';
export * from './authenticate-certificate.js';
export * from './authenticate-partner.js';
export * from './authenticate-player.js';
export * from './issue-access-token.js';
export * from './session-ending-answer.js';
