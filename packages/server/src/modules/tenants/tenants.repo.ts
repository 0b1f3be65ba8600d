import { type Insertable, type Selectable, sql } from 'kysely';
import type {
  AuditLogTable,
  OauthCredentialTable,
  WhiteLabelCertificateTable,
  WhiteLabelTable,
} from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { CredentialRow, WhiteLabelChanges, WhiteLabelRow } from './white-label.js';

/**
 * The only SQL of the tenants module. Every query on a credential takes the white label id it must belong
 * to, so a caller can never reach another white label's rows by id (isolation).
 */

export async function insertWhiteLabel(
  db: Executor,
  row: Insertable<WhiteLabelTable>,
): Promise<WhiteLabelRow> {
  return db.insertInto('white_label').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findWhiteLabel(db: Executor, id: string): Promise<WhiteLabelRow | undefined> {
  return db.selectFrom('white_label').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listWhiteLabels(db: Executor): Promise<WhiteLabelRow[]> {
  return db.selectFrom('white_label').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function updateWhiteLabel(
  db: Executor,
  id: string,
  changes: WhiteLabelChanges & {
    signing_secret?: string;
    previous_signing_secret?: string | null;
    previous_signing_secret_until?: Date | null;
  },
  at: Date,
): Promise<WhiteLabelRow | undefined> {
  const { optional_callbacks, ...rest } = changes;
  return db
    .updateTable('white_label')
    .set({
      ...rest,
      ...(optional_callbacks !== undefined ? { optional_callbacks: JSON.stringify(optional_callbacks) } : {}),
      updated_at: at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records what Bookie learnt of one optional callback of a white label from an answer (`supported` or
 * `unsupported`, with the HTTP status). Returns false, writing nothing, when that was already what it knew: a flood
 * of 404s writes once.
 */
export async function learnOptionalCallback(
  db: Executor,
  whiteLabelId: string,
  callback: string,
  learnt: 'supported' | 'unsupported',
  status: number,
  at: Date,
): Promise<boolean> {
  const res = await sql`
    UPDATE white_label SET optional_callbacks = jsonb_set(optional_callbacks, ARRAY[${callback}::text],
      coalesce(optional_callbacks -> ${callback}::text, '{}'::jsonb)
        || jsonb_build_object('learnt', ${learnt}::text, 'learnt_at', ${at.toISOString()}::text,
             'last_status', ${status}::int4))
    WHERE id = ${whiteLabelId}
      AND coalesce(optional_callbacks -> ${callback}::text ->> 'learnt', 'unknown') <> ${learnt}::text`.execute(
    db,
  );
  return (res.numAffectedRows ?? 0n) > 0n;
}

/** Locks the white label row for the rest of the transaction (serialises rotations and updates). */
export async function lockWhiteLabel(db: Executor, id: string): Promise<WhiteLabelRow | undefined> {
  return db.selectFrom('white_label').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function insertCredential(
  db: Executor,
  row: Insertable<OauthCredentialTable>,
): Promise<CredentialRow> {
  return db.insertInto('oauth_credential').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listCredentials(db: Executor, whiteLabelId: string): Promise<CredentialRow[]> {
  return db
    .selectFrom('oauth_credential')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Marks a credential of `whiteLabelId` revoked (idempotent: keeps the first revocation time). */
export async function revokeCredential(
  db: Executor,
  whiteLabelId: string,
  clientId: string,
  at: Date,
): Promise<CredentialRow | undefined> {
  const row = await db
    .updateTable('oauth_credential')
    .set({ revoked_at: at })
    .where('white_label_id', '=', whiteLabelId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (row) return row;
  return db
    .selectFrom('oauth_credential')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** A credential by its public client id (the token endpoint's lookup). */
export async function findCredentialByClientId(
  db: Executor,
  clientId: string,
): Promise<CredentialRow | undefined> {
  return db.selectFrom('oauth_credential').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function audit(db: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** A certificate binding row. */
export type CertificateRow = Selectable<WhiteLabelCertificateTable>;

/** Binds a certificate to a white label. */
export async function insertCertificate(
  db: Executor,
  row: Insertable<WhiteLabelCertificateTable>,
): Promise<CertificateRow> {
  return db.insertInto('white_label_certificate').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A certificate binding by fingerprint (revoked or not). */
export async function findCertificate(
  db: Executor,
  fingerprint: string,
): Promise<CertificateRow | undefined> {
  return db
    .selectFrom('white_label_certificate')
    .selectAll()
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
}

/** Revokes a white label's certificate (idempotent: the first revocation time stays). */
export async function revokeCertificateRow(
  db: Executor,
  whiteLabelId: string,
  fingerprint: string,
  at: Date,
): Promise<CertificateRow | undefined> {
  return db
    .updateTable('white_label_certificate')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('white_label_id', '=', whiteLabelId)
    .where('fingerprint', '=', fingerprint)
    .returningAll()
    .executeTakeFirst();
}
