import { DomainError } from '@bookie/core';
import type { PlatformServices } from '../../platform/services.js';
import { hashSecret } from '../tenants/index.js';
import { endSession } from './auth.repo.js';

/**
 * Ends a player session token of a white label, at once (DECISIONS D26: e.g. when the partner answers
 * `auth_credentials_expired` to `/bet/place`, or calls `POST /token/expire`). Idempotent.
 *
 * @throws DomainError not_found when the white label has no such token (another white label's token too).
 */
export async function expireSession(
  deps: Pick<PlatformServices, 'database' | 'clock'>,
  input: { whiteLabelId: string; token: string },
): Promise<void> {
  const row = await endSession(
    deps.database.db,
    input.whiteLabelId,
    hashSecret(input.token),
    new Date(deps.clock.now()),
  );
  if (!row) throw new DomainError('not_found', 'session token not found');
}
