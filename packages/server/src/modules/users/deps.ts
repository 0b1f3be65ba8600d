import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { PlatformServices } from '../../platform/services.js';

/** What the users use cases need (the CLI builds just these). */
export interface UsersDeps {
  database: Database;
  clock: Clock;
  settings: {
    /** Session lifetime, s (`USER_SESSION_TTL_S`). */
    sessionTtlS: number;
    /** Failed logins of one email from one address that start locking that pair (`LOGIN_LOCKOUT_AFTER`). */
    lockoutAfter: number;
    /** The longest lock, s (`LOGIN_LOCKOUT_S`); locks grow 1, 2, 4… s up to it. */
    lockoutS: number;
  };
}

/** The users use cases' dependencies out of the platform's services. */
export function usersDeps(app: Pick<PlatformServices, 'database' | 'clock' | 'config'>): UsersDeps {
  const a = app.config.auth;
  return {
    database: app.database,
    clock: app.clock,
    settings: {
      sessionTtlS: a.userSessionTtlS,
      lockoutAfter: a.loginLockoutAfter,
      lockoutS: a.loginLockoutS,
    },
  };
}
