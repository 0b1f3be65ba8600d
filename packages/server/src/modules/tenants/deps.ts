import type { AppDeps } from '../../app/wiring.js';

/** What tenancy use cases need: the database and the clock (the CLI builds just these). */
export type TenancyDeps = Pick<AppDeps, 'database' | 'clock'>;

/** Who made an admin change, for the audit log (`admin-api`, `cli`). */
export type Actor = string;
