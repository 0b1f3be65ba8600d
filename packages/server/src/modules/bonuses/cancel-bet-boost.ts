import type { BetBoostView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { cancelBetBoostRow, findBetBoost } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { betBoostView } from './views.js';

/**
 * Cancels a bet boost (`POST /bet-boosts/{id}/cancel`): no bet takes it from now on; bets that already took it keep
 * their boosted odds. Cancelling a cancelled boost answers it again.
 *
 * @throws DomainError not_found (unknown, or another white label's).
 */
export async function cancelBetBoost(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string },
): Promise<BetBoostView> {
  const now = deps.clock.now();
  return inTransaction(deps.database.db, async (tx) => {
    const row = await findBetBoost(tx, input.whiteLabelId, input.id);
    if (!row) throw new DomainError('not_found', `no bet boost ${input.id}`, { field: 'id' });
    await cancelBetBoostRow(tx, row.id, new Date(now));
    return betBoostView((await findBetBoost(tx, input.whiteLabelId, row.id)) as typeof row, now);
  });
}
