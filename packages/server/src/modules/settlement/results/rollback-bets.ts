import { ODD_STATUS } from '@bookie/core';
import { inTransaction } from '../../../db/transaction.js';
import type { Bet, SelectionRow } from '../../bets/index.js';
import type { SettlementDeps } from '../deps.js';
import {
  type EventSelectionKey,
  insertRollback,
  type RollbackRow,
  scanRollbackPage,
} from '../settlement.repo.js';
import { applyPage } from './apply-page.js';
import { type Applied, addApplied, NOTHING_APPLIED } from './apply-results.js';
import type { SettlementLimits } from './decide.js';
import { type BatchOptions, DEFAULT_PAGE_SIZE } from './settle-market.js';

/** True when a rollback catches this selection of this bet (spec 02 "bet_rollback"). */
export function rollbackCatches(rb: RollbackRow, bet: Bet['row'], s: SelectionRow): boolean {
  if (s.sport_event_id !== rb.sportEventId) return false;
  if (rb.marketIds.length > 0 && !rb.marketIds.includes(s.market_id)) return false;
  const created = new Date(bet.created_at).getTime();
  return created >= rb.dtStart.getTime() && created <= rb.dtEnd.getTime();
}

/** The selection as a rollback leaves it: cancelled (odd status 6, factor 1) with the rollback's reason. */
export function rolledBack(s: SelectionRow, reason: string): SelectionRow {
  return {
    ...s,
    status: ODD_STATUS.CANCELLED,
    dead_heat: null,
    status_reason: reason,
    result_source: 'rollback',
  };
}

/**
 * Applies a `bet_rollback` entry (spec 02; docs/adr/0008-settlement.md "Rollbacks"): records it (so bets accepted
 * later inside the window are caught by the sweep), then pages through the selections it catches — bets on the
 * event (all markets, or only `market_ids`) created within [dt_start, dt_end] — and makes each one cancelled
 * (status 6, factor 1) with `status_reason` = the rollback reason; each bet is then settled, unsettled or
 * resettled as its state requires. Selections set by an operator keep their result.
 */
export async function rollbackBets(
  deps: SettlementDeps,
  rollback: RollbackRow,
  opts: BatchOptions = {},
): Promise<Applied> {
  const { database } = deps;
  await inTransaction(database.db, async (tx) => {
    await opts.fence?.(tx);
    await insertRollback(tx, rollback);
  });
  const cause = `rollback:${rollback.version}`;
  const limits = new Map<string, SettlementLimits>();
  let total = NOTHING_APPLIED;
  let after: EventSelectionKey | null = null;
  let batch = 0;
  for (;;) {
    const keys = await scanRollbackPage(database.db, {
      rollback,
      after,
      limit: opts.pageSize ?? DEFAULT_PAGE_SIZE,
    });
    if (keys.length === 0) break;
    after = keys[keys.length - 1] as EventSelectionKey;
    const applied = await applyPage(deps, keys, {
      cause,
      limits,
      fence: opts.fence,
      transform: (bet, s) =>
        s.result_source !== 'manual' && rollbackCatches(rollback, bet, s)
          ? rolledBack(s, rollback.reason)
          : s,
    });
    total = addApplied(total, { ...applied, changed: [] });
    batch++;
    await opts.afterBatch?.({ cause, batch, applied });
  }
  return total;
}
