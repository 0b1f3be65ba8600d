import { randomBytes } from 'node:crypto';
import { USER_ROLES, type UserRole, type UserView } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { UsersDeps } from './deps.js';
import { checkPasswordPolicy, hashPassword } from './password.js';
import { normaliseEmail, toUserView } from './user-view.js';
import { findUserByEmail, insertAuditRow, insertUser } from './users.repo.js';

/** Input of {@link createUser}. */
export interface CreateUserInput {
  email: string;
  role: string;
  /** The partner user's white label; none for an operator. */
  whiteLabelId?: string;
  /** The password; a random one is made (and returned) when absent. */
  password?: string;
  /** Who (audit log), e.g. `cli:<user>`. */
  actor: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Creates a backoffice user (DECISIONS D53): an operator, or a partner user (`partner_admin`, `partner_viewer`) of
 * one existing white label; the password is stored as a scrypt hash. Audited.
 *
 * @returns the user and, when none was given, the generated password (shown once).
 * @throws DomainError validation_error naming `email`, `role`, `white_label` or `password`; conflict (the email is
 * taken); not_found (no such white label).
 */
export async function createUser(
  deps: UsersDeps,
  input: CreateUserInput,
): Promise<{ user: UserView; password?: string }> {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) throw validationError('email', 'must be an email address');
  if (!(USER_ROLES as readonly string[]).includes(input.role)) {
    throw validationError('role', `must be one of ${USER_ROLES.join(', ')}`);
  }
  const role = input.role as UserRole;
  if (role === 'operator' && input.whiteLabelId) throw validationError('white_label', 'an operator has none');
  if (role !== 'operator' && !input.whiteLabelId)
    throw validationError('white_label', 'a partner user needs one');
  const generated = input.password === undefined ? randomBytes(12).toString('base64url') : undefined;
  const password = input.password ?? (generated as string);
  checkPasswordPolicy(password);
  const hash = await hashPassword(password);
  const user = await inTransaction(deps.database.db, async (tx) => {
    if (await findUserByEmail(tx, email))
      throw new DomainError('conflict', `a user ${email} exists`, { field: 'email' });
    if (input.whiteLabelId) {
      const wl = await tx
        .selectFrom('white_label')
        .select('id')
        .where('id', '=', input.whiteLabelId)
        .executeTakeFirst();
      if (!wl)
        throw new DomainError('not_found', `no white label ${input.whiteLabelId}`, { field: 'white_label' });
    }
    const row = await insertUser(tx, {
      id: `usr_${randomBytes(8).toString('hex')}`,
      email,
      role,
      white_label_id: input.whiteLabelId ?? null,
      password_hash: hash,
    });
    await insertAuditRow(tx, {
      at: new Date(deps.clock.now()),
      actor: input.actor,
      action: 'user.create',
      subject: `user:${row.id}`,
      details: { before: null, after: toUserView(row) },
    });
    return row;
  });
  return { user: toUserView(user), ...(generated ? { password: generated } : {}) };
}
