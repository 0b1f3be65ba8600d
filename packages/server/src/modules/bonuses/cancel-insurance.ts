import type { InsuranceView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { auditBonus, findInsurance, updateInsurance } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { insuranceView } from './views.js';

/**
 * Cancels a bet insurance the partner gave (`POST /insurance/cancel`): available (or expired) → cancelled, so no bet
 * takes it any more (audited); cancelling a cancelled insurance answers it again. One applied to a bet, paid or declined cannot
 * be cancelled (its bet decides it). No callback: the partner asked for it.
 *
 * @throws DomainError not_found (unknown, or another white label's), conflict naming the status.
 */
export async function cancelInsurance(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string; actor: string },
): Promise<InsuranceView> {
  const now = deps.clock.now();
  return inTransaction(deps.database.db, async (tx) => {
    const row = await findInsurance(tx, input.whiteLabelId, input.id, true);
    if (!row) throw new DomainError('not_found', `no insurance ${input.id}`, { field: 'body.id' });
    if (row.status !== 'available' && !(row.status === 'cancelled' && row.bet_id === null)) {
      throw new DomainError('conflict', `insurance ${input.id} is ${row.status}; it cannot be cancelled`, {
        field: 'body.id',
        status: row.status,
      });
    }
    if (row.status === 'available') {
      await updateInsurance(tx, row.id, { status: 'cancelled', updated_at: new Date(now) });
      await auditBonus(tx, {
        at: new Date(now),
        actor: input.actor,
        action: 'insurance.cancel',
        subject: `insurance:${row.id}`,
        details: { white_label_id: input.whiteLabelId, player_id: row.player_id, before: row.status },
      });
    }
    return insuranceView((await findInsurance(tx, input.whiteLabelId, row.id)) as typeof row, now);
  });
}
