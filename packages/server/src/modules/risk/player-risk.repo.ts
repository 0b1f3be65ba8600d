import { CompiledQuery, type Selectable, sql } from 'kysely';
import { pgArray } from '../../db/pg-array.js';
import type { PlayerRiskTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A player's risk row. */
export type PlayerRiskRow = Selectable<PlayerRiskTable>;

/** A player's risk row, if any. */
export function readPlayerRisk(
  db: Executor,
  whiteLabelId: string,
  playerId: string,
): Promise<PlayerRiskRow | undefined> {
  return db
    .selectFrom('player_risk')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
}

/** A player's group to write, as the player_risk columns. */
function playerRiskValues(row: FirstRequest) {
  return {
    white_label_id: row.whiteLabelId,
    player_id: row.playerId,
    group_name: row.group,
    group_source: row.source,
  };
}

/**
 * Records a player's first request (spec 03 VIP): inserts the row with `group` when none exists; an existing row is
 * left alone. Returns the row as it is now.
 */
export async function ensurePlayerRisk(
  tx: Executor,
  row: { whiteLabelId: string; playerId: string; group: string; source: PlayerRiskRow['group_source'] },
): Promise<PlayerRiskRow> {
  await tx
    .insertInto('player_risk')
    .values(playerRiskValues(row))
    .onConflict((oc) => oc.columns(['white_label_id', 'player_id']).doNothing())
    .execute();
  return (await readPlayerRisk(tx, row.whiteLabelId, row.playerId)) as PlayerRiskRow;
}

/** The key of a white label's player in maps of players' groups. */
export const playerRiskKey = (whiteLabelId: string, playerId: string) => `${whiteLabelId}\u0000${playerId}`;

/** A player's first request as a placement records it (spec 03 VIP): the group it would start in. */
export interface FirstRequest {
  whiteLabelId: string;
  playerId: string;
  group: string;
  source: PlayerRiskRow['group_source'];
}

/**
 * The statement of {@link recordFirstRequests}: one text whatever the number of players (array literals), prepared
 * once per connection.
 */
const RECORD_FIRST_REQUESTS = `
  with v as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])
      as v(white_label_id, player_id, group_name, group_source)
  ), ins as (
    insert into player_risk (white_label_id, player_id, group_name, group_source)
    select distinct on (white_label_id, player_id) white_label_id, player_id, group_name, group_source from v
    on conflict (white_label_id, player_id) do nothing
    returning white_label_id, player_id, group_name
  )
  select white_label_id, player_id, group_name from ins
  union all
  select p.white_label_id, p.player_id, p.group_name
  from player_risk p where (p.white_label_id, p.player_id) in (select white_label_id, player_id from v)`;

/**
 * Records the first request of every player among `rows` that has none yet (an existing row is left alone), and
 * answers every listed player's group as it is now, keyed by {@link playerRiskKey}. One statement for a
 * whole batch of holds; a row another transaction inserted at the same moment is read again after it.
 */
export async function recordFirstRequests(
  tx: Executor,
  rows: readonly FirstRequest[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rows.length === 0) return out;
  const key = playerRiskKey;
  const res = await tx.executeQuery<{ white_label_id: string; player_id: string; group_name: string }>(
    CompiledQuery.raw(RECORD_FIRST_REQUESTS, [
      pgArray(rows.map((r) => r.whiteLabelId)),
      pgArray(rows.map((r) => r.playerId)),
      pgArray(rows.map((r) => r.group)),
      pgArray(rows.map((r) => r.source)),
    ]),
  );
  for (const r of res.rows) out.set(key(r.white_label_id, r.player_id), r.group_name);
  for (const r of rows) {
    if (out.has(key(r.whiteLabelId, r.playerId))) continue;
    const now = await readPlayerRisk(tx, r.whiteLabelId, r.playerId);
    out.set(key(r.whiteLabelId, r.playerId), now?.group_name ?? r.group);
  }
  return out;
}

/** Sets a player's group (partner or operator). */
export async function setPlayerGroup(
  tx: Executor,
  row: { whiteLabelId: string; playerId: string; group: string; source: PlayerRiskRow['group_source'] },
): Promise<PlayerRiskRow> {
  const out = await tx
    .insertInto('player_risk')
    .values(playerRiskValues(row))
    .onConflict((oc) =>
      oc
        .columns(['white_label_id', 'player_id'])
        .doUpdateSet({ group_name: row.group, group_source: row.source, updated_at: sql`now()` }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return out;
}

/** Adds closing-line values of newly settled legs to players' sums (D40). */
export async function addClosingLineValues(
  tx: Executor,
  items: ReadonlyArray<{ whiteLabelId: string; playerId: string; sum: string; count: number }>,
): Promise<void> {
  for (const i of items) {
    await sql`
      insert into player_risk (white_label_id, player_id, group_name, group_source, clv_sum, clv_count)
      values (${i.whiteLabelId}, ${i.playerId}, 'default', 'default', ${i.sum}::numeric, ${i.count})
      on conflict (white_label_id, player_id) do update
        set clv_sum = player_risk.clv_sum + excluded.clv_sum, clv_count = player_risk.clv_count + excluded.clv_count,
            updated_at = now()`.execute(tx);
  }
}
