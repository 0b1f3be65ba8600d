import type { UserView } from '@bookie/contracts';
import type { UserRow } from './users.repo.js';

/** A user as shown (never its password hash). */
export function toUserView(u: Pick<UserRow, 'id' | 'email' | 'role' | 'white_label_id'>): UserView {
  return { id: u.id, email: u.email, role: u.role, white_label_id: u.white_label_id };
}

/** Emails are compared lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
