import { CALLBACK_PATHS } from '@bookie/contracts';
import { restriction } from '@bookie/core';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import type { Bet } from '../bets/index.js';
import { claimStuckPlacements, declineBody, loadBets, transitionBet } from '../bets/index.js';
import { releaseBonuses } from '../bonuses/index.js';
import { enqueueCallbacks, failPendingSyncDeliveries, recordSyncDeliveries } from '../callbacks/index.js';
import { placeCallback } from './placement-writes.js';

const INTERRUPTED = 'placement interrupted';

/**
 * Finishes placements that a crash (or a kill -9) left in `hold_requested` past their deadline (crash
 * safety"): the partner may have held the stake, so each bet ends force_decline (11) with a `/bet/decline`
 * (restriction internal_error `placement_interrupted`) that releases it, after its `/bet/place` written failed (the
 * bytes the partner may have received: the bet's request_id, the body serialised from the bet as held; the
 * placement, if it is still running, records its own outcome over it); a freebet or boost the bet reserved is
 * given back. Safe with several processes: rows are
 * claimed with SKIP LOCKED and moved only from `hold_requested`; with several processes only the leader of the
 * `placement-recovery` role runs it, and `fence` (its lease check) runs first in the transaction.
 *
 * @returns the ids of the bets it declined.
 */
export async function recoverPlacements(
  database: Database,
  limit = 100,
  fence: (tx: Executor) => Promise<void> = async () => {},
): Promise<string[]> {
  return inTransaction(database.db, async (tx) => {
    await fence(tx);
    const rows = await claimStuckPlacements(tx, limit);
    if (rows.length === 0) return [];
    const bets = await loadBets(
      tx,
      rows.map((r) => r.id),
    );
    const r = restriction('internal_error', { code: 'placement_interrupted' });
    const done: string[] = [];
    for (const bet of bets as Bet[]) {
      if (
        !(await transitionBet(tx, bet.row.id, 'hold_requested', 'force_declined', {
          restrictions: [r],
          decidedAt: new Date(),
        }))
      ) {
        continue;
      }
      await releaseBonuses(tx, bet.row.id, new Date()); // bonuses: freebet and boost back
      const requestId = bet.row.place_request_id;
      if (requestId === null) {
        // held before /bet/place was written once: its row is in the outbox, pending
        await failPendingSyncDeliveries(tx, bet.row.id, INTERRUPTED);
      } else {
        await recordSyncDeliveries(tx, [
          {
            ...placeCallback(bet, requestId),
            delivered: false,
            attempts: 0,
            status: null,
            error: INTERRUPTED,
            createdAt: new Date(bet.row.created_at),
          },
        ]);
      }
      await enqueueCallbacks(tx, [
        {
          whiteLabelId: bet.row.white_label_id,
          betId: bet.row.id,
          path: CALLBACK_PATHS.decline,
          body: declineBody(bet, [r]),
          foreignParams: bet.row.foreign_params,
        },
      ]);
      done.push(bet.row.id);
    }
    return done;
  });
}
