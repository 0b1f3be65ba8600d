import type { WhiteLabelCredentialView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { whiteLabelChanged } from './cached-white-labels.js';
import type { Actor, TenancyDeps } from './deps.js';
import { audit, revokeCredential as revokeRow } from './tenants.repo.js';

/**
 * Revokes a client credential of a white label; tokens minted before stay refused (docs/adr/0005-tenancy.md). It
 * takes effect on the next request in this process, and in another process within its access token cache's time
 * (`ACCESS_TOKEN_CACHE_MS`, docs/adr/0071-access-token-cache.md). Idempotent.
 *
 * @throws DomainError not_found when the white label has no such client id.
 */
export async function revokeCredential(
  deps: TenancyDeps,
  input: { whiteLabelId: string; clientId: string },
  actor: Actor = 'admin-api',
): Promise<WhiteLabelCredentialView> {
  const now = new Date(deps.clock.now());
  const view = await inTransaction(deps.database.db, async (tx) => {
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
  // this process's caches of access tokens read the credential again
  whiteLabelChanged(input.whiteLabelId);
  return view;
}
