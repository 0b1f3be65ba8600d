import { createHash, randomBytes } from 'node:crypto';
import type { SessionView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { UsersDeps } from './deps.js';
import { DUMMY_HASH_PROMISE, verifyPassword } from './password.js';
import { normaliseEmail, toUserView } from './user-view.js';
import { findUserByEmail, insertAuditRow, insertSession, setLoginFailures } from './users.repo.js';

let dummyHash: Promise<string> | undefined;

/** The stored form of a session cookie value. */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Logs a backoffice user in (DECISIONS D53): checks the password against its scrypt hash and opens a session with
 * its CSRF token. A wrong password counts towards the lockout (`LOGIN_LOCKOUT_AFTER` in a row lock the user for
 * `LOGIN_LOCKOUT_S`); a locked user is refused even with the right password. Unknown emails cost a hash check too.
 *
 * @returns the session's cookie value (`token`) and its view.
 * @throws DomainError unauthorized (wrong email or password: one message for both), rate_limited (locked, with
 * `retry_after` seconds).
 */
export async function logIn(
  deps: UsersDeps,
  input: { email: string; password: string; ip: string },
): Promise<{ token: string; session: SessionView }> {
  const email = normaliseEmail(input.email);
  const user = await findUserByEmail(deps.database.db, email);
  const now = deps.clock.now();
  if (!user) {
    dummyHash ??= DUMMY_HASH_PROMISE();
    await verifyPassword(input.password, await dummyHash);
    throw new DomainError('unauthorized', 'wrong email or password');
  }
  if (user.locked_until && new Date(user.locked_until).getTime() > now) {
    const retryAfter = Math.ceil((new Date(user.locked_until).getTime() - now) / 1000);
    throw new DomainError('rate_limited', 'too many failed logins: the user is locked', {
      retry_after: retryAfter,
    });
  }
  const ok = await verifyPassword(input.password, user.password_hash);
  if (!ok) {
    const failures = user.failed_logins + 1;
    const lock = failures >= deps.settings.lockoutAfter;
    await inTransaction(deps.database.db, async (tx) => {
      await setLoginFailures(
        tx,
        user.id,
        lock ? 0 : failures,
        lock ? new Date(now + deps.settings.lockoutS * 1000) : null,
      );
      if (lock) {
        await insertAuditRow(tx, {
          at: new Date(now),
          actor: 'system',
          action: 'user.locked',
          subject: `user:${user.id}`,
          details: { ip: input.ip, failed_logins: failures, locked_for_s: deps.settings.lockoutS },
        });
      }
    });
    throw new DomainError('unauthorized', 'wrong email or password');
  }
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now + deps.settings.sessionTtlS * 1000);
  await inTransaction(deps.database.db, async (tx) => {
    if (user.failed_logins > 0 || user.locked_until) await setLoginFailures(tx, user.id, 0, null);
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
