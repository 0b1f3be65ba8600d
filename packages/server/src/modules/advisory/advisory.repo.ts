import type { AdvisoryBet } from '@bookie/contracts';
import type { Executor } from '../../db/transaction.js';

/** An advisory bet as stored. */
export interface StoredAdvisoryBet {
  version: number;
  status_code: number;
  state: Record<string, unknown>;
  restrictions: unknown[];
}

/** The advisory bet of a white label with this id (locked with `lock`), if any. */
export async function findAdvisoryBet(
  db: Executor,
  whiteLabelId: string,
  betId: string,
  lock = false,
): Promise<StoredAdvisoryBet | undefined> {
  let q = db
    .selectFrom('advisory_bet')
    .select(['version', 'status_code', 'state', 'restrictions'])
    .where('white_label_id', '=', whiteLabelId)
    .where('bet_id', '=', betId);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Writes version `version` of an advisory bet: the current state and the version history row. */
export async function writeAdvisoryVersion(
  tx: Executor,
  v: {
    whiteLabelId: string;
    bet: Omit<AdvisoryBet, 'version'>;
    playerId: string;
    version: number;
    restrictions: readonly unknown[];
    at: Date;
  },
): Promise<void> {
  const state = JSON.stringify(v.bet);
  if (v.version === 1) {
    await tx
      .insertInto('advisory_bet')
      .values({
        white_label_id: v.whiteLabelId,
        bet_id: v.bet.id,
        player_id: v.playerId,
        status_code: v.bet.status.code,
        version: 1,
        state,
        restrictions: JSON.stringify(v.restrictions),
        created_at: v.at,
        updated_at: v.at,
      })
      .execute();
  } else {
    await tx
      .updateTable('advisory_bet')
      .set({ status_code: v.bet.status.code, version: v.version, state, updated_at: v.at })
      .where('white_label_id', '=', v.whiteLabelId)
      .where('bet_id', '=', v.bet.id)
      .execute();
  }
  await tx
    .insertInto('advisory_bet_version')
    .values({ white_label_id: v.whiteLabelId, bet_id: v.bet.id, version: v.version, state, at: v.at })
    .execute();
}

/** Every version of an advisory bet, oldest first. */
export async function listAdvisoryVersions(db: Executor, whiteLabelId: string, betId: string) {
  return db
    .selectFrom('advisory_bet_version')
    .select(['version', 'state', 'at'])
    .where('white_label_id', '=', whiteLabelId)
    .where('bet_id', '=', betId)
    .orderBy('version')
    .execute();
}
