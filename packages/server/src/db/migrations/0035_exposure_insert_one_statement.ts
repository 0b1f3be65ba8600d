import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The insert trigger of `bet` (migration 0032) adds the exposure of the bets it inserts open in one statement
 * instead of three (docs/adr/0062-lean-reported-bets.md): the new open bets' leg exposures are joined and summed per
 * outcome once (a materialized CTE), the outcomes are locked from that sum (one ordered `risk_lock_outcomes`
 * acquisition, computed before any row is produced: the upsert reads the lock's one row), and the sums are upserted.
 * Before, the join of the transition table with `bet_exposure` ran twice (the lock keys, then the upsert) and the
 * lock was its own statement. What it writes is unchanged: the same amounts, `max_amount` as the update trigger
 * keeps it, nothing for bets inserted in any other state (a frame bet inserted held).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE OR REPLACE FUNCTION risk_bet_insert_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       WITH legs AS MATERIALIZED (
         SELECT e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id,
                max(e.market_type_id) AS market_type_id, sum(e.amount) AS amount
           FROM new_bets n
           JOIN bet_exposure e ON e.bet_id = n.id
          WHERE n.state IN ('accepted', 'unsettled')
          GROUP BY e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id
       ), locked AS MATERIALIZED (
         SELECT risk_lock_outcomes(k.keys)
           FROM (SELECT array_agg(risk_outcome_lock_key(l.white_label_id, l.sport_event_id, l.market_id, l.odd_id,
                                                        l.phase)) AS keys
                   FROM legs l) k
          WHERE k.keys IS NOT NULL
       )
       INSERT INTO risk_exposure AS r
           (white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, max_amount)
         SELECT l.white_label_id, l.phase, l.sport_event_id, l.market_id, l.odd_id, l.market_type_id,
                l.amount, greatest(l.amount, 0)
           FROM legs l CROSS JOIN locked
       ON CONFLICT (white_label_id, sport_event_id, market_id, odd_id, phase)
         DO UPDATE SET amount = r.amount + excluded.amount,
                       max_amount = greatest(r.max_amount, r.amount + excluded.amount);
       RETURN NULL;
     END $$`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE OR REPLACE FUNCTION risk_bet_insert_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       keys bigint[];
     BEGIN
       SELECT array_agg(risk_outcome_lock_key(e.white_label_id, e.sport_event_id, e.market_id, e.odd_id, e.phase))
         INTO keys
         FROM new_bets n
         JOIN bet_exposure e ON e.bet_id = n.id
        WHERE n.state IN ('accepted', 'unsettled');
       IF keys IS NULL THEN
         RETURN NULL;
       END IF;
       PERFORM risk_lock_outcomes(keys);
       INSERT INTO risk_exposure AS r
           (white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, max_amount)
         SELECT e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id, max(e.market_type_id),
                sum(e.amount), greatest(sum(e.amount), 0)
           FROM new_bets n
           JOIN bet_exposure e ON e.bet_id = n.id
          WHERE n.state IN ('accepted', 'unsettled')
          GROUP BY e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id
       ON CONFLICT (white_label_id, sport_event_id, market_id, odd_id, phase)
         DO UPDATE SET amount = r.amount + excluded.amount,
                       max_amount = greatest(r.max_amount, r.amount + excluded.amount);
       RETURN NULL;
     END $$`,
  ]);
}
