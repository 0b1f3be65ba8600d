import { DomainError } from '@bookie/core';
import { hashSecret } from '../../tenants/index.js';
import type { IntegrationDeps } from '../deps.js';
import { expireSessionAt } from './sandbox.repo.js';

/**
 * Sandbox helper "expire a session" (DECISIONS D51): a player session token of the calling white label reaches its
 * expiry now, as if its lifetime had passed, so the partner can see how the frame and its callbacks behave when a
 * session runs out (`POST /token/expire` instead ends a session on purpose).
 *
 * @throws DomainError not_found naming `body.token` when the white label has no such session.
 */
export async function expireSessionNow(
  deps: Pick<IntegrationDeps, 'database' | 'clock'>,
  input: { whiteLabelId: string; token: string },
): Promise<{ expired_at: string }> {
  const at = new Date(deps.clock.now());
  const found = await expireSessionAt(deps.database.db, input.whiteLabelId, hashSecret(input.token), at);
  if (!found)
    throw new DomainError('not_found', 'body.token: no such session of this white label', {
      field: 'body.token',
    });
  return { expired_at: at.toISOString() };
}
