import type { FreebetView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { findFreebet, updateFreebet } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { freebetView } from './views.js';

/**
 * Cancels a freebet (`POST /freebet/cancel`): available (or expired) → cancelled; cancelling a cancelled
 * freebet answers it again. A freebet reserved for a bet or used cannot be cancelled (its bet decides it).
 *
 * @throws DomainError not_found (unknown, or another white label's), conflict naming the status.
 */
export async function cancelFreebet(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string },
): Promise<FreebetView> {
  const now = deps.clock.now();
  return inTransaction(deps.database.db, async (tx) => {
    const row = await findFreebet(tx, input.whiteLabelId, input.id, true);
    if (!row) throw new DomainError('not_found', `no freebet ${input.id}`, { field: 'body.id' });
    if (row.status === 'reserved' || row.status === 'used') {
      throw new DomainError('conflict', `freebet ${input.id} is ${row.status}; it cannot be cancelled`, {
        field: 'body.id',
        status: row.status,
      });
    }
    if (row.status === 'available')
      await updateFreebet(tx, row.id, { status: 'cancelled', updated_at: new Date(now) });
    return freebetView((await findFreebet(tx, input.whiteLabelId, row.id)) as typeof row, now);
  });
}
