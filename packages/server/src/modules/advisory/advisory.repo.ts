import type { AdvisoryBet } from '@bookie/contracts';
import { CompiledQuery } from 'kysely';
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

/**
 * The insert of first reported advisory bets: the current state and version 1 of each, one text whatever their
 * number (the rows as one JSON parameter read by `jsonb_to_recordset`), compiled once here and prepared once per
 * connection. A bet id already stored fails the primary key of `advisory_bet`.
 */
const INSERT_FIRST_VERSIONS = `WITH v AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(white_label_id text, bet_id text, player_id text,
      status_code int2, state jsonb, restrictions jsonb, at timestamptz)
  ), b AS (
    INSERT INTO advisory_bet (white_label_id, bet_id, player_id, status_code, version, state, restrictions,
      created_at, updated_at)
    SELECT white_label_id, bet_id, player_id, status_code, 1, state, restrictions, at, at FROM v
  )
  INSERT INTO advisory_bet_version (white_label_id, bet_id, version, state, at)
  SELECT white_label_id, bet_id, 1, state, at FROM v`;

/** A first reported advisory bet to store as version 1. */
export interface FirstAdvisoryVersion {
  whiteLabelId: string;
  bet: Omit<AdvisoryBet, 'version'>;
  playerId: string;
  restrictions: readonly unknown[];
  at: Date;
}

/**
 * Stores first reported advisory bets as version 1 (the current state and its version row) in one statement; a bet
 * id already stored for its white label fails the whole statement on the primary key (SQLSTATE 23505).
 */
export async function insertFirstAdvisoryVersions(
  tx: Executor,
  items: readonly FirstAdvisoryVersion[],
): Promise<void> {
  if (items.length === 0) return;
  const rows = items.map((v) => ({
    white_label_id: v.whiteLabelId,
    bet_id: v.bet.id,
    player_id: v.playerId,
    status_code: v.bet.status.code,
    state: v.bet,
    restrictions: v.restrictions,
    at: v.at.toISOString(),
  }));
  await tx.executeQuery(CompiledQuery.raw(INSERT_FIRST_VERSIONS, [JSON.stringify(rows)]));
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
