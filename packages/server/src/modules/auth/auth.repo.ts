import type { Insertable, Selectable } from 'kysely';
import { CompiledQuery, sql } from 'kysely';
import { pgArray } from '../../db/pg-array.js';
import type { AccessTokenTable, SessionTokenTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** The only SQL of the auth module. Session queries by a partner always filter by its white label. */

export async function insertAccessToken(db: Executor, row: Insertable<AccessTokenTable>): Promise<void> {
  await db.insertInto('access_token').values(row).execute();
}

/** What one partner request needs to know about its token, in one query (token, credential, allowlist). */
export interface AccessTokenLookup {
  white_label_id: string;
  credential_id: string;
  client_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  allowlist: string[];
}

export async function findAccessToken(
  db: Executor,
  tokenHash: string,
): Promise<AccessTokenLookup | undefined> {
  return db
    .selectFrom('access_token as t')
    .innerJoin('oauth_credential as c', 'c.id', 't.credential_id')
    .innerJoin('white_label as w', 'w.id', 't.white_label_id')
    .select([
      't.white_label_id',
      't.credential_id',
      'c.client_id',
      't.expires_at',
      'c.revoked_at',
      'w.allowlist',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** The read of {@link findAccessTokens}: one text whatever the count, prepared once. */
const FIND_ACCESS_TOKENS = `
  select t.token_hash, t.white_label_id, t.credential_id, c.client_id, t.expires_at, c.revoked_at, w.allowlist
  from access_token t
  join oauth_credential c on c.id = t.credential_id
  join white_label w on w.id = t.white_label_id
  where t.token_hash = any($1::text[])`;

/**
 * The lookups of several access tokens in one statement (the partner requests arriving together), in the order of
 * `tokenHashes`; an unknown token has undefined. One statement text whatever the count.
 */
export async function findAccessTokens(
  db: Executor,
  tokenHashes: readonly string[],
): Promise<Array<AccessTokenLookup | undefined>> {
  if (tokenHashes.length === 0) return [];
  const res = await db.executeQuery<AccessTokenLookup & { token_hash: string }>(
    CompiledQuery.raw(FIND_ACCESS_TOKENS, [pgArray([...new Set(tokenHashes)])]),
  );
  const byHash = new Map(res.rows.map(({ token_hash, ...r }) => [token_hash, r]));
  return tokenHashes.map((h) => byHash.get(h));
}

/** What decides whether a credential's open streams may go on: its revocation and its white label's allowlist. */
export interface CredentialState {
  credential_id: string;
  revoked_at: Date | null;
  allowlist: string[];
}

/** The states of `credentialIds` (a credential that no longer exists has no row). */
export async function findCredentialStates(
  db: Executor,
  credentialIds: readonly string[],
): Promise<CredentialState[]> {
  if (credentialIds.length === 0) return [];
  return db
    .selectFrom('oauth_credential as c')
    .innerJoin('white_label as w', 'w.id', 'c.white_label_id')
    .select(['c.id as credential_id', 'c.revoked_at', 'w.allowlist'])
    .where('c.id', 'in', [...credentialIds])
    .execute();
}

/** Removes a credential's tokens that expired before `before` (housekeeping when a new one is issued). */
export async function deleteExpiredAccessTokens(
  db: Executor,
  credentialId: string,
  before: Date,
): Promise<void> {
  await db
    .deleteFrom('access_token')
    .where('credential_id', '=', credentialId)
    .where('expires_at', '<', before)
    .execute();
}

export type SessionRow = Selectable<SessionTokenTable>;

export async function insertSession(db: Executor, row: Insertable<SessionTokenTable>): Promise<void> {
  await db.insertInto('session_token').values(row).execute();
}

/** What authenticating a player reads of a session: who, where, and whether it is still valid. */
export type SessionAuthRow = Pick<
  SessionRow,
  | 'id'
  | 'token_hash'
  | 'white_label_id'
  | 'player_id'
  | 'currency'
  | 'locale'
  | 'params'
  | 'context'
  | 'expires_at'
  | 'ended_at'
>;

/** The session read of player routes: one text whatever the number of hashes (an array), prepared once. */
const FIND_SESSIONS = `
  SELECT id, token_hash, white_label_id, player_id, currency, locale, params, context, expires_at, ended_at
  FROM session_token WHERE token_hash = any($1::text[])`;

export async function findSession(db: Executor, tokenHash: string): Promise<SessionAuthRow | undefined> {
  return (await findSessions(db, [tokenHash]))[0];
}

/** Several sessions by token hash in one statement; one entry per hash, in order (undefined when unknown). */
export async function findSessions(
  db: Executor,
  tokenHashes: readonly string[],
): Promise<Array<SessionAuthRow | undefined>> {
  if (tokenHashes.length === 0) return [];
  const { rows } = await db.executeQuery<SessionAuthRow>(
    CompiledQuery.raw(FIND_SESSIONS, [[...new Set(tokenHashes)]]),
  );
  const byHash = new Map(rows.map((r) => [r.token_hash, r]));
  return tokenHashes.map((h) => byHash.get(h));
}

/** Ends a session of `whiteLabelId` (keeps the first end time); undefined when that white label has no such token. */
export async function endSession(
  db: Executor,
  whiteLabelId: string,
  tokenHash: string,
  at: Date,
): Promise<SessionRow | undefined> {
  const row = await db
    .updateTable('session_token')
    .set({ ended_at: at })
    .where('white_label_id', '=', whiteLabelId)
    .where('token_hash', '=', tokenHash)
    .where('ended_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (row) return row;
  return db
    .selectFrom('session_token')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Ends the session a bet was placed with (keeps the first end time); returns its id when this call ended it, undefined
 * when the bet has no session, or it had ended already.
 */
export async function endSessionOfBet(db: Executor, betId: string, at: Date): Promise<string | undefined> {
  // the bet's `session_token_hash` column names its session by the session's id (a hash, for older rows)
  const r = await sql<{ id: string }>`
    UPDATE session_token s SET ended_at = ${at.toISOString()}::timestamptz
    FROM bet b
    WHERE b.id = ${betId} AND b.session_token_hash IS NOT NULL AND s.white_label_id = b.white_label_id
      AND (s.id::text = b.session_token_hash OR s.token_hash = b.session_token_hash) AND s.ended_at IS NULL
    RETURNING s.id`.execute(db);
  return r.rows[0]?.id;
}

/** Removes sessions of a white label that expired before `before`. */
export async function deleteExpiredSessions(db: Executor, whiteLabelId: string, before: Date): Promise<void> {
  await db
    .deleteFrom('session_token')
    .where('white_label_id', '=', whiteLabelId)
    .where('expires_at', '<', before)
    .execute();
}

/** A client certificate binding with its white label's allowlist (feed authentication by certificate). */
export interface CertificateBinding {
  id: string;
  white_label_id: string;
  fingerprint: string;
  revoked_at: Date | null;
  allowlist: string[];
}

/** The binding of a certificate fingerprint, revoked or not, or undefined when it is bound to no white label. */
export async function findCertificateBinding(
  db: Executor,
  fingerprint: string,
): Promise<CertificateBinding | undefined> {
  return db
    .selectFrom('white_label_certificate as c')
    .innerJoin('white_label as w', 'w.id', 'c.white_label_id')
    .select(['c.id', 'c.white_label_id', 'c.fingerprint', 'c.revoked_at', 'w.allowlist'])
    .where('c.fingerprint', '=', fingerprint)
    .executeTakeFirst();
}

/** The states of certificate bindings by id, shaped like credential states (open streams re-check them). */
export async function findCertificateStates(
  db: Executor,
  ids: readonly string[],
): Promise<Array<{ id: string; revoked_at: Date | null; allowlist: string[] }>> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('white_label_certificate as c')
    .innerJoin('white_label as w', 'w.id', 'c.white_label_id')
    .select(['c.id', 'c.revoked_at', 'w.allowlist'])
    .where('c.id', 'in', [...ids])
    .execute();
}
