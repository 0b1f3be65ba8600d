import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** The states of a bet Bookie declined (declined, place error, forced decline). */
const DECLINED = ['declined', 'place_error', 'force_declined'];

/** Every white label's id and name, by name. */
export async function whiteLabelNames(db: Executor): Promise<Array<{ id: string; name: string }>> {
  return db.selectFrom('white_label').select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

/** Bets declined per white label, UTC day of placement and currency in `[from, to)`. */
export async function declinedSums(
  db: Executor,
  from: Date,
  to: Date,
): Promise<Array<{ white_label_id: string; day: string; currency: string; declined: string }>> {
  const r = await sql<{ white_label_id: string; day: string; currency: string; declined: string }>`
    SELECT white_label_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency,
      count(*)::text AS declined
    FROM bet
    WHERE created_at >= ${from} AND created_at < ${to} AND state IN (${sql.join(DECLINED)})
    GROUP BY 1, 2, 3`.execute(db);
  return r.rows;
}

/** Σ exposure (EUR, 6 decimals) and how many outcomes carry exposure. */
export async function exposureTotal(db: Executor): Promise<{ total: string; outcomes: number }> {
  const r = await sql<{ total: string; outcomes: string }>`
    SELECT to_char(coalesce(sum(amount), 0), 'FM999999999999999999990.000000') AS total,
      count(*) FILTER (WHERE amount <> 0)::text AS outcomes
    FROM risk_exposure`.execute(db);
  return { total: r.rows[0]?.total ?? '0.000000', outcomes: Number(r.rows[0]?.outcomes ?? 0) };
}

/** The `n` outcomes with the largest exposure, largest first. */
export async function largestExposures(db: Executor, n: number) {
  return db
    .selectFrom('risk_exposure')
    .selectAll()
    .orderBy('amount', 'desc')
    .orderBy('sport_event_id')
    .orderBy('market_id')
    .orderBy('odd_id')
    .limit(n)
    .execute();
}

/**
 * Pending callback deliveries whose last attempt failed, per white label, with when the oldest was written. A failed
 * attempt puts a row in the dispatchers' queue, so these are queued rows (the claim's partial index, ADR 0063).
 */
export async function failingCallbacks(
  db: Executor,
): Promise<Array<{ white_label_id: string; failing: number; oldest_at: Date | null }>> {
  const r = await sql<{ white_label_id: string; failing: string; oldest_at: Date | null }>`
    SELECT white_label_id, count(*)::text AS failing, min(created_at) AS oldest_at
    FROM callback_delivery
    WHERE queued AND status = 'pending' AND last_error IS NOT NULL
    GROUP BY white_label_id
    ORDER BY count(*) DESC, white_label_id`.execute(db);
  return r.rows.map((x) => ({
    white_label_id: x.white_label_id,
    failing: Number(x.failing),
    oldest_at: x.oldest_at,
  }));
}

/** The log's head, the version settlement saved, when that entry was written, and the entries in quarantine. */
export async function settlementFigures(db: Executor): Promise<{
  head: string;
  processed: string;
  last_entry_at: Date | null;
  quarantined: number;
}> {
  const r = await sql<{
    head: string | null;
    processed: string | null;
    last_entry_at: Date | null;
    quarantined: string;
  }>`
    SELECT (SELECT max(v) FROM feed_log)::text AS head,
      (SELECT version FROM consumer_offset WHERE name = 'settlement')::text AS processed,
      (SELECT f.created_at FROM feed_log f
        WHERE f.v = (SELECT version FROM consumer_offset WHERE name = 'settlement')) AS last_entry_at,
      (SELECT count(*) FROM settlement_quarantine WHERE status IN ('quarantined', 'retry'))::text AS quarantined`.execute(
    db,
  );
  const row = r.rows[0];
  return {
    head: row?.head ?? '0',
    processed: row?.processed ?? '0',
    last_entry_at: row?.last_entry_at ?? null,
    quarantined: Number(row?.quarantined ?? 0),
  };
}

/** The optional callbacks Bookie learnt a white label does not implement (answered 404, 405 or 501). */
export async function unsupportedCallbacks(
  db: Executor,
): Promise<Array<{ white_label_id: string; callback: string }>> {
  const r = await sql<{ white_label_id: string; callback: string }>`
    SELECT w.id AS white_label_id, c.key AS callback
    FROM white_label w, jsonb_each(w.optional_callbacks) c
    WHERE c.value ->> 'learnt' = 'unsupported'
    ORDER BY 1, 2`.execute(db);
  return r.rows;
}
