import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/**
 * Pending callbacks per white label: how many, and the age of the oldest in seconds. Pending rows are the queued
 * ones and the born-leased ones not yet recorded, which the recovery's mark bounds (ADR 0063): each part is read
 * through its own partial index, not by scanning every callback ever delivered.
 */
export async function callbackQueue(
  db: Executor,
): Promise<Array<{ whiteLabelId: string; depth: number; oldestAgeS: number }>> {
  const r = await sql<{ white_label_id: string; depth: string; oldest_s: string | null }>`
    select white_label_id, count(*)::text as depth,
      extract(epoch from now() - min(created_at))::text as oldest_s
    from (
      select white_label_id, created_at from callback_delivery where queued and status = 'pending'
      union all
      select white_label_id, created_at from callback_delivery
      where born_leased and not queued and status = 'pending'
        and created_at >= (select through from callback_recovery_mark)
    ) p group by white_label_id`.execute(db);
  return r.rows.map((x) => ({
    whiteLabelId: x.white_label_id,
    depth: Number(x.depth),
    oldestAgeS: Math.max(0, Number(x.oldest_s ?? 0)),
  }));
}

/** The log's head version and the version the settlement consumer saved (0 when none). */
export async function settlementPosition(db: Executor): Promise<{ head: bigint; processed: bigint }> {
  const r = await sql<{ head: string | null; processed: string | null }>`
    select (select max(v) from feed_log)::text as head,
      (select version from consumer_offset where name = 'settlement')::text as processed`.execute(db);
  const row = r.rows[0];
  return { head: BigInt(row?.head ?? 0), processed: BigInt(row?.processed ?? 0) };
}

/** The optional callbacks Bookie learnt a white label does not implement (it answered them 404, 405 or 501). */
export async function unsupportedOptionalCallbacks(
  db: Executor,
): Promise<Array<{ whiteLabelId: string; callback: string }>> {
  const r = await sql<{ white_label_id: string; callback: string }>`
    select w.id as white_label_id, c.key as callback
    from white_label w, jsonb_each(w.optional_callbacks) c
    where c.value ->> 'learnt' = 'unsupported'`.execute(db);
  return r.rows.map((x) => ({ whiteLabelId: x.white_label_id, callback: x.callback }));
}

/** Log entries in settlement's quarantine, not resolved or skipped. */
export async function quarantinedEntries(db: Executor): Promise<number> {
  const r = await sql<{ n: string }>`select count(*)::text as n from settlement_quarantine
    where status in ('quarantined', 'retry')`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Exposure (EUR, as the risk engine keeps it) summed per sport and phase (`prematch` or `live`); a reading for
 * dashboards, not for money (the value is a float there).
 */
export async function exposureBySport(
  db: Executor,
): Promise<Array<{ sport: string; phase: string; amount: number }>> {
  const r = await sql<{ sport: string | null; phase: string; amount: string }>`
    select s.sport, e.phase, sum(e.amount::numeric)::text as amount
    from risk_exposure e
    left join lateral (select (se.snapshot::jsonb -> 'fixture' ->> 'sport_id') as sport
      from sport_event se where se.id = e.sport_event_id) s on true
    group by s.sport, e.phase`.execute(db);
  return r.rows.map((x) => ({ sport: x.sport ?? 'unknown', phase: x.phase, amount: Number(x.amount) }));
}
