import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/**
 * The exposure of one bet's legs after a cash-out changed the stake it has in play: with exposure.repo.ts, the risk
 * module's repositories are the only writers of `bet_exposure` and `risk_exposure` (D37; the bet state trigger
 * moves an outcome's exposure when a bet opens or closes).
 */

/**
 * What a bet's leg exposures are computed from, as the exposure recompute reads it: total odds, every leg's odds in
 * leg order (an inner leg of a builder: its builder's combined odds, with the builder's index in `builders`), the EUR
 * rate (undefined for a bet without kept exposure).
 */
export async function readExposureBasis(
  db: Executor,
  betId: string,
): Promise<
  { totalOdds: string; legOdds: string[]; builders: (number | null)[]; eurRate: string } | undefined
> {
  const res = await sql<{
    total_odds: string;
    odds: string[];
    builders: (number | null)[];
    rate: string | null;
  }>`
    select b.total_odds::text as total_odds, array_agg(coalesce(bb.odds, s.odds)::text order by s.idx) as odds,
           array_agg(s.builder order by s.idx) as builders, max(e.eur_rate)::text as rate
    from bet b
    join bet_selection s on s.bet_id = b.id
    left join bet_builder bb on bb.bet_id = s.bet_id and bb.builder = s.builder
    left join bet_exposure e on e.bet_id = s.bet_id and e.idx = s.idx
    where b.id = ${betId}::uuid
    group by b.id, b.total_odds`.execute(db);
  const row = res.rows[0];
  if (!row || row.rate === null) return undefined;
  return { totalOdds: row.total_odds, legOdds: row.odds, builders: row.builders, eurRate: row.rate };
}

/**
 * Sets a bet's leg exposures (EUR, 6 decimals, in leg order); when the bet is open, moves each outcome's exposure by
 * the difference in the same transaction. The caller holds the locks of the bet's outcomes (`lockBetOutcomes`).
 */
export async function writeLegExposure(
  db: Executor,
  betId: string,
  amounts: readonly string[],
  open: boolean,
): Promise<void> {
  if (amounts.length === 0) return;
  const moved = await sql<{
    white_label_id: string;
    phase: string;
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    delta: string;
  }>`
    WITH new AS (
      SELECT ord - 1 AS idx, amount::numeric AS amount
        FROM unnest(${amounts as string[]}::text[]) WITH ORDINALITY AS t(amount, ord)
    ),
    old AS (SELECT b.idx, b.amount FROM bet_exposure b WHERE b.bet_id = ${betId}::uuid),
    upd AS (
      UPDATE bet_exposure b SET amount = new.amount
        FROM new, old WHERE b.bet_id = ${betId}::uuid AND b.idx = new.idx AND old.idx = new.idx
      RETURNING b.white_label_id, b.phase, b.sport_event_id, b.market_id, b.odd_id, new.amount - old.amount AS delta
    )
    SELECT white_label_id, phase, sport_event_id, market_id, odd_id, sum(delta)::text AS delta
      FROM upd GROUP BY white_label_id, phase, sport_event_id, market_id, odd_id`.execute(db);
  if (!open) return;
  for (const m of moved.rows) {
    await sql`UPDATE risk_exposure SET amount = amount + ${m.delta}::numeric,
                max_amount = greatest(max_amount, amount + ${m.delta}::numeric)
              WHERE white_label_id = ${m.white_label_id} AND phase = ${m.phase}
                AND sport_event_id = ${m.sport_event_id} AND market_id = ${m.market_id} AND odd_id = ${m.odd_id}`.execute(
      db,
    );
  }
}
