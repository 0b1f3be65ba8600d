import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** The sports, tournaments and market types of the book (every sport event snapshot the feed keeps). */
export async function bookReferenceData(db: Executor): Promise<{
  sports: string[];
  tournaments: Array<{ id: string; name: string; sport_id: string }>;
  marketTypes: number[];
}> {
  const t = await sql<{ id: string; name: string; sport_id: string }>`
    SELECT DISTINCT ON (s.snapshot::jsonb #>> '{fixture,tournament,id}')
      s.snapshot::jsonb #>> '{fixture,tournament,id}' AS id,
      s.snapshot::jsonb #>> '{fixture,tournament,name}' AS name,
      s.snapshot::jsonb #>> '{fixture,sport_id}' AS sport_id
    FROM sport_event s
    WHERE s.snapshot::jsonb #>> '{fixture,tournament,id}' IS NOT NULL
    ORDER BY s.snapshot::jsonb #>> '{fixture,tournament,id}', s.updated_at DESC`.execute(db);
  const m = await sql<{ type_id: number }>`
    SELECT DISTINCT (m.value ->> 'type_id')::int AS type_id
    FROM sport_event s, jsonb_each(s.snapshot::jsonb -> 'markets') m
    WHERE m.value ->> 'type_id' IS NOT NULL`.execute(db);
  const sp = await sql<{ sport_id: string }>`
    SELECT DISTINCT s.snapshot::jsonb #>> '{fixture,sport_id}' AS sport_id FROM sport_event s
    WHERE s.snapshot::jsonb #>> '{fixture,sport_id}' IS NOT NULL`.execute(db);
  return {
    sports: sp.rows.map((r) => r.sport_id),
    tournaments: t.rows,
    marketTypes: m.rows.map((r) => Number(r.type_id)),
  };
}

/** The currencies of a white label. */
export async function whiteLabelCurrencies(db: Executor, whiteLabelId: string): Promise<string[]> {
  const r = await db
    .selectFrom('white_label')
    .select('currencies')
    .where('id', '=', whiteLabelId)
    .executeTakeFirst();
  return (r?.currencies as string[] | undefined) ?? [];
}
