import { createHash, randomBytes } from 'node:crypto';
import type { SessionView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { normalizeAddress } from '../tenants/index.js';
import type { UsersDeps } from './deps.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from './password.js';
import { normaliseEmail, toUserView } from './user-view.js';
import {
  clearLoginThrottle,
  findLoginThrottle,
  findUserByEmail,
  insertAuditRow,
  insertSession,
  pruneLoginThrottle,
  recordLoginFailure,
} from './users.repo.js';

let dummyHash: Promise<string> | undefined;

/** The stored form of a session cookie value. */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The delay, in s, of the `failures`-th failed login of one email from one source: none below `after`, then
 * 1, 2, 4… s (2^(failures − after)), at most `maxS`. */
export function lockoutDelayS(failures: number, after: number, maxS: number): number {
  if (failures < after) return 0;
  const k = failures - after;
  return k >= 31 ? maxS : Math.min(2 ** k, maxS);
}

/** The source a login is counted against: the client address, IPv4-mapped IPv6 read as IPv4. */
function sourceOf(ip: string): string {
  return normalizeAddress(ip).toLowerCase();
}

/**
 * Logs a backoffice user in (DECISIONS D53, docs/adr/0030-hostile-input.md): checks the password against its scrypt
 * hash and opens a session with its CSRF token. Failed logins are counted per email and source address: from the
 * `LOGIN_LOCKOUT_AFTER`-th failure on, that email is locked for that address only, for 1, 2, 4… s (doubling with each
 * further failure, at most `LOGIN_LOCKOUT_S`); another address is not affected, so nobody can lock a user out from
 * elsewhere. An unknown email, a wrong password and a locked email/address pair get the same answer after the same
 * work (one scrypt check: against a dummy hash for an unknown email); attempts while locked are not counted.
 *
 * @returns the session's cookie value (`token`) and its view.
 * @throws DomainError unauthorized `wrong email or password` (unknown email, wrong password or locked: one answer).
 */
export async function logIn(
  deps: UsersDeps,
  input: { email: string; password: string; ip: string },
): Promise<{ token: string; session: SessionView }> {
  const email = normaliseEmail(input.email);
  const source = sourceOf(input.ip);
  const refused = () => new DomainError('unauthorized', 'wrong email or password');
  const [user, throttle] = await Promise.all([
    findUserByEmail(deps.database.db, email),
    findLoginThrottle(deps.database.db, email, source),
  ]);
  const now = deps.clock.now();
  dummyHash ??= DUMMY_HASH_PROMISE();
  const ok = await verifyPassword(input.password, user ? user.password_hash : await dummyHash);
  if (throttle?.locked_until && new Date(throttle.locked_until).getTime() > now) throw refused();
  if (!user || !ok) {
    const at = new Date(now);
    await inTransaction(deps.database.db, async (tx) => {
      let delayS = 0;
      const failures = await recordLoginFailure(tx, {
        email,
        source,
        at,
        lockedUntil: (n) => {
          delayS = lockoutDelayS(n, deps.settings.lockoutAfter, deps.settings.lockoutS);
          return delayS > 0 ? new Date(now + delayS * 1000) : null;
        },
      });
      if (user && delayS > 0) {
        await insertAuditRow(tx, {
          at,
          actor: 'system',
          action: 'user.locked',
          subject: `user:${user.id}`,
          details: { ip: input.ip, failed_logins: failures, locked_for_s: delayS },
        });
      }
      await pruneLoginThrottle(tx, new Date(now - deps.settings.lockoutS * 1000));
    });
    throw refused();
  }
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now + deps.settings.sessionTtlS * 1000);
  await inTransaction(deps.database.db, async (tx) => {
    if (throttle) await clearLoginThrottle(tx, email, source);
    await insertSession(tx, {
      id: `ses_${randomBytes(8).toString('hex')}`,
      token_hash: sessionTokenHash(token),
      user_id: user.id,
      csrf_token: csrf,
      expires_at: expiresAt,
    });
    await insertAuditRow(tx, {
      at: new Date(now),
      actor: `user:${user.email}`,
      action: 'user.login',
      subject: `user:${user.id}`,
      details: { ip: input.ip },
    });
  });
  return {
    token,
    session: { user: toUserView(user), csrf_token: csrf, expires_at: expiresAt.toISOString() },
  };
}
