/** The tenants module's public surface: what other modules may use. */
export * from './allowlist.js';
export * from './cached-white-labels.js';
export * from './deps.js';
export * from './get-white-label.js';
export * from './learn-optional-callback.js';
export * from './secrets.js';
export * from './signing-for.js';
export { findCredentialByClientId, findWhiteLabel, listWhiteLabels } from './tenants.repo.js';
export * from './update-white-label.js';
export * from './validate.js';
export * from './white-label.js';
