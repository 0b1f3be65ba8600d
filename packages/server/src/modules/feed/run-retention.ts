import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { deleteFinishedSnapshots, deleteLogUpTo, raiseFloor, versionCreatedBefore } from './feed.repo.js';

/** Retention periods (spec 02 "Limits"). */
export interface RetentionSettings {
  /** Log entries older than this are removed, in seconds (default 3 days). */
  logRetentionS: number;
  /** Snapshots of events ended, closed, cancelled or abandoned longer ago than this are removed, in s (5 days). */
  snapshotRetentionS: number;
}

/** What one retention run did. */
export interface RetentionResult {
  /** The retention floor after the run: `/log` answers 409 below it (DECISIONS D22). */
  floor: bigint | undefined;
  logDeleted: number;
  snapshotsDeleted: number;
}

/**
 * Removes expired log entries and snapshots (spec 02 "Limits"). The floor is raised in the same transaction as the
 * first deletion, so a reader that sees an entry missing also sees the floor that explains it. With several
 * processes, only the leader of the `retention` role runs it: `fence` (its lease check) runs in every deleting
 * transaction, so a process that lost the role deletes nothing more.
 */
export async function runRetention(
  deps: { database: Database; clock: Clock },
  settings: RetentionSettings,
  fence: (tx: Executor) => Promise<void> = async () => {},
): Promise<RetentionResult> {
  const now = deps.clock.now();
  const db = deps.database.db;
  const upTo = await versionCreatedBefore(db, new Date(now - settings.logRetentionS * 1000));
  let logDeleted = 0;
  if (upTo !== undefined) {
    logDeleted += await inTransaction(db, async (tx) => {
      await fence(tx);
      await raiseFloor(tx, upTo);
      return deleteLogUpTo(tx, upTo, 10_000);
    });
    for (;;) {
      const n = await inTransaction(db, async (tx) => {
        await fence(tx);
        return deleteLogUpTo(tx, upTo, 10_000);
      });
      logDeleted += n;
      if (n < 10_000) break;
    }
  }
  const snapshotsDeleted = await inTransaction(db, async (tx) => {
    await fence(tx);
    return deleteFinishedSnapshots(tx, new Date(now - settings.snapshotRetentionS * 1000));
  });
  return { floor: upTo, logDeleted, snapshotsDeleted };
}
