import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

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
