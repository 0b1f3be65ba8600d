import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** A bet of the bet report, as stored. */
export interface BetReportDbRow {
  id: string;
  player_id: string;
  created_at: Date;
  state: string;
  settle_type: number | null;
  settle_status: number | null;
  bet_type: 'single' | 'express' | 'system';
  currency: string;
  stake: string;
  total_odds: string;
  settle_amount: string | null;
  settled_at: Date | null;
  source: 'frame' | 'mts';
  partner_bet_id: string | null;
}

/** The bets of a white label placed in `[from, to)`, oldest first (at most `limit`). */
export async function betsPlacedIn(
  db: Executor,
  whiteLabelId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<BetReportDbRow[]> {
  return db
    .selectFrom('bet')
    .select([
      'id',
      'player_id',
      'created_at',
      'state',
      'settle_type',
      'settle_status',
      'bet_type',
      'currency',
      'stake',
      'total_odds',
      'settle_amount',
      'settled_at',
      'source',
      'partner_bet_id',
    ])
    .where('white_label_id', '=', whiteLabelId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute() as Promise<BetReportDbRow[]>;
}

/** Sums per UTC day of placement and currency; amounts are exact numeric sums written with 6 decimals. */
export async function dailySums(db: Executor, whiteLabelId: string, from: Date, to: Date) {
  const r = await sql<{
    day: string;
    currency: string;
    bets_placed: string;
    bets_accepted: string;
    bets_settled: string;
    stake: string;
    settled_stake: string;
    settle_amount: string;
  }>`
    SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency,
      count(*)::text AS bets_placed,
      count(*) FILTER (WHERE state IN ('accepted', 'settled', 'unsettled', 'cashed_out'))::text AS bets_accepted,
      count(*) FILTER (WHERE state = 'settled')::text AS bets_settled,
      to_char(coalesce(sum(stake) FILTER (WHERE state IN ('accepted', 'settled', 'unsettled', 'cashed_out')), 0),
        'FM999999999999999999990.000000') AS stake,
      to_char(coalesce(sum(stake) FILTER (WHERE state = 'settled'), 0), 'FM999999999999999999990.000000')
        AS settled_stake,
      to_char(coalesce(sum(settle_amount) FILTER (WHERE state = 'settled'), 0), 'FM999999999999999999990.000000')
        AS settle_amount
    FROM bet
    WHERE white_label_id = ${whiteLabelId} AND created_at >= ${from} AND created_at < ${to}
    GROUP BY 1, 2
    ORDER BY 1, 2`.execute(db);
  return r.rows;
}

/**
 * Advisory bets per UTC day of their first report and currency of their stake: how many, and Σ stake of those whose
 * reported status is not declined (2).
 */
export async function advisoryDailySums(db: Executor, whiteLabelId: string, from: Date, to: Date) {
  const r = await sql<{ day: string; currency: string; bets: string; stake: string }>`
    SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, state -> 'stake' ->> 'currency_code' AS currency,
      count(*)::text AS bets,
      to_char(coalesce(sum((state -> 'stake' ->> 'value')::numeric) FILTER (WHERE status_code <> 2), 0),
        'FM999999999999999999990.000000') AS stake
    FROM advisory_bet
    WHERE white_label_id = ${whiteLabelId} AND created_at >= ${from} AND created_at < ${to}
    GROUP BY 1, 2
    ORDER BY 1, 2`.execute(db);
  return r.rows;
}

/** The advisory bets of a white label first reported in `[from, to)`, oldest first (at most `limit`). */
export async function advisoryBetsPlacedIn(
  db: Executor,
  whiteLabelId: string,
  from: Date,
  to: Date,
  limit: number,
) {
  return db
    .selectFrom('advisory_bet')
    .select(['bet_id', 'player_id', 'created_at', 'status_code', 'state'])
    .where('white_label_id', '=', whiteLabelId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .orderBy('created_at')
    .orderBy('bet_id')
    .limit(limit)
    .execute();
}
