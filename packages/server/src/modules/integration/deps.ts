import type { PlatformServices } from '../../platform/services.js';

/**
 * What the integration environment needs (DECISIONS D51, D52): the database and clock for MCP authorization, the
 * settings (environment, token lifetimes, callback timeout), the logger, and the feed for the sandbox helpers.
 */
export type IntegrationDeps = Pick<PlatformServices, 'database' | 'clock' | 'config' | 'logger'> & {
  /** Wakes the feed's fan-out after a sandbox helper appended to the log. */
  feed?: { poke(): void } | undefined;
};
