import type { PlatformServices } from '../../platform/services.js';

/** What tenancy use cases need: the database and the clock (the CLI builds just these). */
export type TenancyDeps = Pick<PlatformServices, 'database' | 'clock'>;

/** Who made an admin change, for the audit log (`admin-api`, `cli`). */
export type Actor = string;

/** What the white label admin routes need: the tenancy use cases' deps and the auth settings. */
export type TenantsRoutesDeps = Pick<PlatformServices, 'database' | 'clock' | 'config'>;
