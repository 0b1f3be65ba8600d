import type { Clock } from '../../app/clock.js';
import type { Database } from '../../db/database.js';

/** What the users use cases need (the CLI builds just these). */
export interface UsersDeps {
  database: Database;
  clock: Clock;
  settings: {
    /** Session lifetime, s (`USER_SESSION_TTL_S`). */
    sessionTtlS: number;
    /** Failed logins in a row that lock a user (`LOGIN_LOCKOUT_AFTER`). */
    lockoutAfter: number;
    /** How long a lock lasts, s (`LOGIN_LOCKOUT_S`). */
    lockoutS: number;
  };
}
