import type { BetBoostView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { auditBonus, cancelBetBoostRow, findBetBoost } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { betBoostView } from './views.js';

/**
 * Cancels a bet boost (`POST /bet-boosts/{id}/cancel`): no bet takes it from now on; bets that already took it keep
 * their boosted odds. Audited. Cancelling a cancelled boost answers it again.
 *
 * @throws DomainError not_found (unknown, or another white label's).
 */
export async function cancelBetBoost(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string; actor: string },
): Promise<BetBoostView> {
  const now = deps.clock.now();
  return inTransaction(deps.database.db, async (tx) => {
    const row = await findBetBoost(tx, input.whiteLabelId, input.id);
    if (!row) throw new DomainError('not_found', `no bet boost ${input.id}`, { field: 'id' });
    if (row.cancelled_at === null) {
      await cancelBetBoostRow(tx, row.id, new Date(now));
      await auditBonus(tx, {
        at: new Date(now),
        actor: input.actor,
        action: 'bet_boost.cancel',
        subject: `bet_boost:${row.id}`,
        details: {
          white_label_id: input.whiteLabelId,
          player_id: row.player_id,
          remaining_quantity: row.remaining_quantity,
        },
      });
    }
    return betBoostView((await findBetBoost(tx, input.whiteLabelId, row.id)) as typeof row, now);
  });
}
