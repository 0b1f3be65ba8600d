import { sql } from 'kysely';
import type { RiskShadingHistoryTable, Selectable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { ExposureRow } from './exposure.repo.js';

/**
 * What odds shading needs to know first about outcomes whose exposure changed (D39), in one statement: their
 * exposure rows (every white label and phase) and which of them are shaded now.
 */
export async function readShadingCandidates(
  db: Executor,
  keys: ReadonlyArray<{ sport_event_id: string; market_id: string; odd_id: string }>,
): Promise<{
  exposure: ExposureRow[];
  shaded: Array<{ sport_event_id: string; market_id: string; odd_id: string }>;
}> {
  if (keys.length === 0) return { exposure: [], shaded: [] };
  const res = await sql<ExposureRow & { shaded: boolean }>`
    with k as (
      select * from unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                           ${keys.map((k) => k.odd_id)}::text[]) as k(sport_event_id, market_id, odd_id)
    )
    select r.white_label_id, r.phase, r.sport_event_id, r.market_id, r.odd_id, r.market_type_id, r.amount,
           r.max_amount, false as shaded
    from risk_exposure r
    join k on r.sport_event_id = k.sport_event_id and r.market_id = k.market_id and r.odd_id = k.odd_id
    union all
    select null, null, s.sport_event_id, s.market_id, s.odd_id, null, null, null, true from risk_shading s
    join k on s.sport_event_id = k.sport_event_id and s.market_id = k.market_id and s.odd_id = k.odd_id`.execute(
    db,
  );
  const exposure: ExposureRow[] = [];
  const shaded: Array<{ sport_event_id: string; market_id: string; odd_id: string }> = [];
  for (const { shaded: isShaded, ...row } of res.rows) {
    if (isShaded)
      shaded.push({ sport_event_id: row.sport_event_id, market_id: row.market_id, odd_id: row.odd_id });
    else exposure.push(row);
  }
  return { exposure, shaded };
}

/** The shading rows (D39) of outcomes. */
export async function readShading(
  db: Executor,
  keys: ReadonlyArray<{ sport_event_id: string; market_id: string; odd_id: string }>,
): Promise<
  Array<{ sport_event_id: string; market_id: string; odd_id: string; base_odds: string; shaded_odds: string }>
> {
  if (keys.length === 0) return [];
  const res = await sql<{
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    base_odds: string;
    shaded_odds: string;
  }>`
    select s.sport_event_id, s.market_id, s.odd_id, s.base_odds::text as base_odds, s.shaded_odds::text as shaded_odds
    from risk_shading s
    join unnest(${keys.map((k) => k.sport_event_id)}::text[], ${keys.map((k) => k.market_id)}::text[],
                ${keys.map((k) => k.odd_id)}::text[]) as k(sport_event_id, market_id, odd_id)
      on s.sport_event_id = k.sport_event_id and s.market_id = k.market_id and s.odd_id = k.odd_id`.execute(
    db,
  );
  return res.rows;
}

/** Records an outcome as shaded (base and shaded odds), or with null as back at its base. */
export async function writeShading(
  tx: Executor,
  key: { sport_event_id: string; market_id: string; odd_id: string },
  odds: { base: string; shaded: string } | null,
): Promise<void> {
  if (odds === null) {
    await tx
      .deleteFrom('risk_shading')
      .where('sport_event_id', '=', key.sport_event_id)
      .where('market_id', '=', key.market_id)
      .where('odd_id', '=', key.odd_id)
      .execute();
    return;
  }
  await tx
    .insertInto('risk_shading')
    .values({
      sport_event_id: key.sport_event_id,
      market_id: key.market_id,
      odd_id: key.odd_id,
      base_odds: odds.base,
      shaded_odds: odds.shaded,
    })
    .onConflict((oc) =>
      oc
        .columns(['sport_event_id', 'market_id', 'odd_id'])
        .doUpdateSet({ base_odds: odds.base, shaded_odds: odds.shaded, updated_at: sql`now()` }),
    )
    .execute();
}

/**
 * Counts one publication of lowered odds for an outcome and keeps the lowest published, in the shader's transaction.
 * The history stays when the odds are given back their base.
 */
export async function recordShadingPublished(
  tx: Executor,
  key: { sport_event_id: string; market_id: string; odd_id: string; market_type_id: string },
  odds: { base: string; shaded: string },
): Promise<void> {
  await sql`
    insert into risk_shading_history
      (sport_event_id, market_id, odd_id, market_type_id, base_odds, lowest_odds, publications)
    values (${key.sport_event_id}, ${key.market_id}, ${key.odd_id}, ${key.market_type_id},
            ${odds.base}::numeric, ${odds.shaded}::numeric, 1)
    on conflict (sport_event_id, market_id, odd_id) do update set
      publications = risk_shading_history.publications + 1,
      base_odds = excluded.base_odds,
      lowest_odds = least(risk_shading_history.lowest_odds, excluded.lowest_odds),
      last_at = now()`.execute(tx);
}

/** One outcome's shading history, as `GET /admin/risk/shading` lists it. */
export type ShadingHistoryRow = Omit<Selectable<RiskShadingHistoryTable>, 'last_at'>;

/** Outcomes whose odds the shader lowered at least once, most published first. */
export async function listShadingHistory(
  db: Executor,
  filter: { sportEventId?: string; limit?: number },
): Promise<ShadingHistoryRow[]> {
  let q = db
    .selectFrom('risk_shading_history')
    .select([
      'sport_event_id',
      'market_id',
      'odd_id',
      'market_type_id',
      sql<string>`base_odds::text`.as('base_odds'),
      sql<string>`lowest_odds::text`.as('lowest_odds'),
      'publications',
    ]);
  if (filter.sportEventId) q = q.where('sport_event_id', '=', filter.sportEventId);
  return q
    .orderBy('publications', 'desc')
    .orderBy('sport_event_id')
    .orderBy('market_id')
    .orderBy('odd_id')
    .limit(filter.limit ?? 1000)
    .execute();
}
