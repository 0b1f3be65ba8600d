import type { NewWhiteLabelCredential } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { Insertable, OauthCredentialTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { Actor, TenancyDeps } from './deps.js';
import { hashSecret, newClientId, newId, PREFIX, randomToken } from './secrets.js';
import { audit, findWhiteLabel, insertCredential } from './tenants.repo.js';

/** A new credential row and its clear secret (shown once, stored as SHA-256). */
export function newCredentialRow(
  whiteLabelId: string,
  now: Date,
): { row: Insertable<OauthCredentialTable>; secret: string } {
  const secret = randomToken(PREFIX.clientSecret);
  return {
    secret,
    row: {
      id: newId(),
      white_label_id: whiteLabelId,
      client_id: newClientId(),
      secret_hash: hashSecret(secret),
      created_at: now,
    },
  };
}

/**
 * Adds a client credential to a white label (a white label may have several, e.g. to rotate them).
 *
 * @throws DomainError not_found for an unknown white label.
 */
export async function addCredential(
  deps: TenancyDeps,
  input: { whiteLabelId: string },
  actor: Actor = 'admin-api',
): Promise<NewWhiteLabelCredential> {
  const now = new Date(deps.clock.now());
  return inTransaction(deps.database.db, async (tx) => {
    const wl = await findWhiteLabel(tx, input.whiteLabelId);
    if (!wl) throw new DomainError('not_found', `white label ${input.whiteLabelId} not found`);
    const { row, secret } = newCredentialRow(wl.id, now);
    const cred = await insertCredential(tx, row);
    await audit(tx, {
      at: now,
      actor,
      action: 'credential.add',
      subject: `white_label:${wl.id}`,
      details: JSON.stringify({ client_id: cred.client_id }),
    });
    return { white_label_id: wl.id, client_id: cred.client_id, client_secret: secret };
  });
}
