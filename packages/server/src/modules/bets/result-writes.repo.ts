import { sql } from 'kysely';
import type { ResultSource } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** Settlement's writes of the results of a bet's selections and builders (the bet aggregate's columns, not its state). */

/** A selection's new result. */
export interface SelectionChange {
  betId: string;
  idx: number;
  status: number;
  deadHeat: string | null;
  reason: string;
  source: ResultSource;
}

/** Writes selections' results (one statement). */
export async function writeSelectionResults(tx: Executor, rows: readonly SelectionChange[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`update bet_selection s set status = v.status, dead_heat = v.dead_heat::numeric,
      status_reason = v.reason, result_source = v.source
    from unnest(${rows.map((r) => r.betId)}::uuid[], ${rows.map((r) => r.idx)}::int2[],
                ${rows.map((r) => r.status)}::int2[], ${rows.map((r) => r.deadHeat)}::text[],
                ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.source)}::text[])
      as v(bet_id, idx, status, dead_heat, reason, source)
    where s.bet_id = v.bet_id and s.idx = v.idx`.execute(tx);
}

/** A bet builder's new result, recomputed by settlement from its inner legs (D63). */
export interface BuilderChange {
  betId: string;
  builder: number;
  status: number;
  deadHeat: string | null;
  reason: string;
  source: ResultSource;
}

/** Writes bet builders' results (one statement). */
export async function writeBuilderResults(tx: Executor, rows: readonly BuilderChange[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`update bet_builder b set status = v.status, dead_heat = v.dead_heat::numeric,
      status_reason = v.reason, result_source = v.source
    from unnest(${rows.map((r) => r.betId)}::uuid[], ${rows.map((r) => r.builder)}::int2[],
                ${rows.map((r) => r.status)}::int2[], ${rows.map((r) => r.deadHeat)}::text[],
                ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.source)}::text[])
      as v(bet_id, builder, status, dead_heat, reason, source)
    where b.bet_id = v.bet_id and b.builder = v.builder`.execute(tx);
}
