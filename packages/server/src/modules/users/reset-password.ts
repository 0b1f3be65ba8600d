import { randomBytes } from 'node:crypto';
import type { UserView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { UsersDeps } from './deps.js';
import { checkPasswordPolicy, hashPassword } from './password.js';
import { normaliseEmail, toUserView } from './user-view.js';
import {
  clearLoginThrottle,
  endSessionsOfUser,
  findUserByEmail,
  insertAuditRow,
  setPassword,
} from './users.repo.js';

/**
 * Sets a user's password (a random one when none is given), lifts its login lockouts (from every source address)
 * and ends the user's sessions. Audited (without the password).
 *
 * @throws DomainError not_found (no such user, `email`), validation_error (`password`).
 */
export async function resetPassword(
  deps: UsersDeps,
  input: { email: string; password?: string; actor: string },
): Promise<{ user: UserView; password?: string; sessionsEnded: number }> {
  const generated = input.password === undefined ? randomBytes(12).toString('base64url') : undefined;
  const password = input.password ?? (generated as string);
  checkPasswordPolicy(password);
  const hash = await hashPassword(password);
  const email = normaliseEmail(input.email);
  return inTransaction(deps.database.db, async (tx) => {
    const user = await findUserByEmail(tx, email, true);
    if (!user) throw new DomainError('not_found', `no user ${email}`, { field: 'email' });
    const at = new Date(deps.clock.now());
    await setPassword(tx, user.id, hash, at);
    const sessionsEnded = await endSessionsOfUser(tx, user.id, at);
    const throttlesCleared = await clearLoginThrottle(tx, email);
    await insertAuditRow(tx, {
      at,
      actor: input.actor,
      action: 'user.reset_password',
      subject: `user:${user.id}`,
      details: { sessions_ended: sessionsEnded, login_throttles_cleared: throttlesCleared },
    });
    return { user: toUserView(user), ...(generated ? { password: generated } : {}), sessionsEnded };
  });
}
