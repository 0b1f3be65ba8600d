import type { AppDeps } from '../../app/wiring.js';

/**
 * What the integration environment needs (DECISIONS D51, D52): the database and clock for MCP authorization, the
 * settings (environment, token lifetimes, callback timeout) and the logger.
 */
export type IntegrationDeps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'logger'>;
