import type { Insertable, Selectable } from 'kysely';
import type { BackofficeUserTable, UserSessionTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A backoffice user row. */
export type UserRow = Selectable<BackofficeUserTable>;

export async function insertUser(db: Executor, row: Insertable<BackofficeUserTable>): Promise<UserRow> {
  return db.insertInto('backoffice_user').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findUserByEmail(
  db: Executor,
  email: string,
  lock = false,
): Promise<UserRow | undefined> {
  let q = db.selectFrom('backoffice_user').selectAll().where('email', '=', email);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function setPassword(db: Executor, id: string, hash: string, at: Date): Promise<void> {
  await db
    .updateTable('backoffice_user')
    .set({ password_hash: hash, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** The failed logins of one email from one source address, if any. */
export async function findLoginThrottle(db: Executor, email: string, source: string) {
  return db
    .selectFrom('login_throttle')
    .select(['failures', 'locked_until'])
    .where('email', '=', email)
    .where('source', '=', source)
    .executeTakeFirst();
}

/** Counts one more failed login of `email` from `source` and sets its lock; returns the new count. */
export async function recordLoginFailure(
  db: Executor,
  row: { email: string; source: string; at: Date; lockedUntil: (failures: number) => Date | null },
): Promise<number> {
  const current = await db
    .selectFrom('login_throttle')
    .select('failures')
    .where('email', '=', row.email)
    .where('source', '=', row.source)
    .forUpdate()
    .executeTakeFirst();
  const failures = (current?.failures ?? 0) + 1;
  const lockedUntil = row.lockedUntil(failures);
  await db
    .insertInto('login_throttle')
    .values({ email: row.email, source: row.source, failures, locked_until: lockedUntil, updated_at: row.at })
    .onConflict((oc) =>
      oc
        .columns(['email', 'source'])
        .doUpdateSet({ failures, locked_until: lockedUntil, updated_at: row.at }),
    )
    .execute();
  return failures;
}

/** Forgets the failed logins of `email` from `source`, or from every source; returns how many rows went. */
export async function clearLoginThrottle(db: Executor, email: string, source?: string): Promise<number> {
  let q = db.deleteFrom('login_throttle').where('email', '=', email);
  if (source !== undefined) q = q.where('source', '=', source);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Drops throttle rows not touched since `before` whose lock (if any) has ended. */
export async function pruneLoginThrottle(db: Executor, before: Date): Promise<void> {
  await db
    .deleteFrom('login_throttle')
    .where('updated_at', '<', before)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', before)]))
    .execute();
}

export async function insertSession(db: Executor, row: Insertable<UserSessionTable>): Promise<void> {
  await db.insertInto('user_session').values(row).execute();
}

/** A session with its user, by the hash of the cookie value. */
export async function findSession(db: Executor, tokenHash: string) {
  return db
    .selectFrom('user_session as s')
    .innerJoin('backoffice_user as u', 'u.id', 's.user_id')
    .select([
      's.id as session_id',
      's.csrf_token',
      's.expires_at',
      's.ended_at',
      'u.id as user_id',
      'u.email',
      'u.role',
      'u.white_label_id',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function endSession(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db
    .updateTable('user_session')
    .set({ ended_at: at })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends a user's open sessions; returns how many were still open (unexpired). */
export async function endSessionsOfUser(db: Executor, userId: string, at: Date): Promise<number> {
  const r = await db
    .updateTable('user_session')
    .set({ ended_at: at })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertAuditRow(
  db: Executor,
  row: { at: Date; actor: string; action: string; subject: string; details: unknown },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ ...row, details: JSON.stringify(row.details) })
    .execute();
}

/** A page of the audit log, newest first, optionally of subjects starting with `subjectPrefix`. */
export async function listAuditRows(
  db: Executor,
  opts: { beforeId?: bigint; limit: number; subjectPrefix?: string; actor?: string },
) {
  let q = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(opts.limit);
  if (opts.beforeId !== undefined) q = q.where('id', '<', opts.beforeId);
  if (opts.subjectPrefix !== undefined)
    q = q.where('subject', 'like', `${opts.subjectPrefix.replace(/[%_\\]/g, '\\$&')}%`);
  if (opts.actor !== undefined) q = q.where('actor', '=', opts.actor);
  return q.execute();
}
