import { GroupCommit } from '@bookie/storage';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { type PlayerEvents, recordBetTimes } from '../bets/index.js';
import { type FirstAdvisoryVersion, insertFirstAdvisoryVersions } from './advisory.repo.js';

/** A first reported advisory bet with its advice, to record; its time counts for the player's `bet_interval`. */
export interface AdvisoryWrite extends FirstAdvisoryVersion {
  /** The sport events of the bet's platform selections and builders. */
  sportEventIds: PlayerEvents['sportEventIds'];
}

/**
 * Records first reported advisory bets in one transaction: each bet as version 1 with its advice (one statement for
 * the bets and their versions), then the players' bet times (one statement). A bet id already stored fails the
 * whole transaction on the primary key.
 */
export async function writeAdvisories(tx: Executor, items: readonly AdvisoryWrite[]): Promise<undefined[]> {
  await insertFirstAdvisoryVersions(tx, items);
  await recordBetTimes(
    tx,
    items.map((w) => ({
      whiteLabelId: w.whiteLabelId,
      playerId: w.playerId,
      sportEventIds: w.sportEventIds,
      at: w.at,
    })),
  );
  return items.map(() => undefined);
}

/**
 * The group commit of advisory bets: the bets reported together share one transaction. When a batch fails (a
 * repeated bet id among them), each bet is written again alone, so only the repeat fails.
 */
export class AdvisoryWrites {
  private readonly batch: GroupCommit<AdvisoryWrite, undefined>;

  constructor(database: Database, opts: { maxBatch?: number; maxConcurrent?: number } = {}) {
    this.batch = new GroupCommit(
      (items) => inTransaction(database.db, (tx) => writeAdvisories(tx, items)),
      opts,
    );
  }

  /** Records one advisory bet (see {@link writeAdvisories}); rejects with SQLSTATE 23505 for a stored bet id. */
  write(item: AdvisoryWrite): Promise<void> {
    return this.batch.submit(item);
  }
}
