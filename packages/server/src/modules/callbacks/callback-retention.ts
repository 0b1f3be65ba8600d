import { CALLBACK_PATHS } from '@bookie/contracts';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { pruneDeliveredStep, readRetentionMark } from './callbacks.repo.js';

/**
 * The callbacks the outbox's retention removes once delivered and old: a bet's placement (`/bet/place`,
 * `/bet/accept`, `/bet/decline`), two rows per bet. The callbacks that move money after placement are kept:
 * `/bet/settle` and `/bet/unsettle` (the reconciliation report finds each ledger entry's callback), the insurance
 * callbacks (an unsettle months later asks whether the refund's `/bet/insurances/accepted` was delivered) and the
 * cash-out callbacks (the reconciliation report reads what each paid). A path added later is kept until it is named
 * here.
 */
export const PRUNED_CALLBACK_PATHS: readonly string[] = [
  CALLBACK_PATHS.place,
  CALLBACK_PATHS.accept,
  CALLBACK_PATHS.decline,
];

/** Settings of the outbox's retention. */
export interface CallbackRetentionSettings {
  /** A delivered placement callback is removed once older than this, in s (`CALLBACK_RETENTION_S`; 0 = never). */
  retentionS: number;
  /** Rows read per step (one transaction each; default 5,000). */
  stepRows?: number;
  /**
   * Rows read at most per run (default 500,000): the first run on a large outbox (after an upgrade) is spread over
   * several runs rather than deleting for hours in one; each run goes on from the mark.
   */
  runRows?: number;
}

/** What one run of {@link runCallbackRetention} did. */
export interface CallbackRetentionResult {
  /** Outbox rows read. */
  examined: number;
  /** Rows removed. */
  deleted: number;
  /** The mark after the run: the highest outbox id examined. */
  throughId: bigint;
}

/**
 * Removes the delivered placement callbacks ({@link PRUNED_CALLBACK_PATHS}) older than the retention from the
 * outbox, walking it in id order from where the last run stopped (`callback_retention_mark`) to its first row that
 * is younger than the retention, or until it has read `runRows` rows. Each step is one statement in its own
 * transaction, with `fence` (the `retention` role's lease check when several processes share the database), so a
 * process that lost the role removes nothing more and a run stopped half-way loses nothing. Rows not delivered when examined (pending, failed, unsupported)
 * stay for the operator; rows of other paths stay.
 */
export async function runCallbackRetention(
  deps: { database: Database; clock: Clock },
  settings: CallbackRetentionSettings,
  fence: (tx: Executor) => Promise<void> = async () => {},
): Promise<CallbackRetentionResult> {
  const db = deps.database.db;
  const result: CallbackRetentionResult = { examined: 0, deleted: 0, throughId: await readRetentionMark(db) };
  if (settings.retentionS <= 0) return result;
  const olderThan = new Date(deps.clock.now() - settings.retentionS * 1000);
  const limit = settings.stepRows ?? 5000;
  const runRows = settings.runRows ?? 500_000;
  for (;;) {
    const step = await inTransaction(db, async (tx) => {
      await fence(tx);
      return pruneDeliveredStep(tx, result.throughId, olderThan, PRUNED_CALLBACK_PATHS, limit);
    });
    result.examined += step.examined;
    result.deleted += step.deleted;
    result.throughId = step.throughId;
    if (step.done || result.examined >= runRows) return result;
  }
}
