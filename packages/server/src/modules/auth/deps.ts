import type { PlatformServices } from '../../platform/services.js';

/** What the OAuth token endpoint and the player sessions need: the database, the clock and the auth settings. */
export type AuthDeps = Pick<PlatformServices, 'database' | 'clock' | 'config'>;
