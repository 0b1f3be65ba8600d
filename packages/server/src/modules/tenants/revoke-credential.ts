import type { WhiteLabelCredentialView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { Actor, TenancyDeps } from './deps.js';
import { audit, revokeCredential as revokeRow } from './tenants.repo.js';

/**
 * Revokes a client credential of a white label. It takes effect on the next request: every access token
 * is checked against its credential's state on each request, so tokens minted before stay refused
 * (docs/adr/0005-tenancy.md). Idempotent.
 *
 * @throws DomainError not_found when the white label has no such client id.
 */
export async function revokeCredential(
  deps: TenancyDeps,
  input: { whiteLabelId: string; clientId: string },
  actor: Actor = 'admin-api',
): Promise<WhiteLabelCredentialView> {
  const now = new Date(deps.clock.now());
  return inTransaction(deps.database.db, async (tx) => {
    const row = await revokeRow(tx, input.whiteLabelId, input.clientId, now);
    if (!row) {
      throw new DomainError(
        'not_found',
        `credential ${input.clientId} not found for white label ${input.whiteLabelId}`,
      );
    }
    await audit(tx, {
      at: now,
      actor,
      action: 'credential.revoke',
      subject: `white_label:${input.whiteLabelId}`,
      details: JSON.stringify({ client_id: input.clientId }),
    });
    return {
      client_id: row.client_id,
      created_at: new Date(row.created_at).toISOString(),
      revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
    };
  });
}
