import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Leaner database work per bet (docs/adr/0068-lean-bet-statements.md):
 *
 * - `bet_selection` loses its foreign key to `bet`. Its check ran once per inserted selection (a lookup of the bet
 *   that locks its row, `FOR KEY SHARE`: a lock written to the new bet's row and to the WAL) for ~40 % of the
 *   selections insert's time. A selection is written only by the bet repository, in the statement after its bet's
 *   and in the same transaction, and bets are never deleted; `bet_exposure` has had no key to `bet` since it was
 *   written before its bet (docs/adr/0052-reported-bets-created-decided.md).
 * - The bet state trigger moves exposure in one statement instead of three, as the insert trigger does since
 *   migration 0035: the moved bets' leg exposures are joined and summed per outcome once (a materialized CTE), the
 *   outcomes are locked from that sum (one ordered `risk_lock_outcomes` acquisition, computed before any row is
 *   produced), and the sums are upserted. Before, the join of the old and new rows with `bet_exposure` ran twice
 *   (the lock keys, then the upsert) and the lock was its own statement. What it writes is unchanged.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bet_selection DROP CONSTRAINT bet_selection_bet_id_fkey',
    `CREATE OR REPLACE FUNCTION risk_bet_state_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       WITH legs AS MATERIALIZED (
         SELECT e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id,
                max(e.market_type_id) AS market_type_id,
                sum(CASE WHEN n.state IN ('accepted', 'unsettled') THEN e.amount ELSE -e.amount END) AS amount
           FROM old_bets o
           JOIN new_bets n ON n.id = o.id
           JOIN bet_exposure e ON e.bet_id = n.id
          WHERE (o.state IN ('accepted', 'unsettled')) <> (n.state IN ('accepted', 'unsettled'))
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
    `CREATE OR REPLACE FUNCTION risk_bet_state_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       keys bigint[];
     BEGIN
       SELECT array_agg(risk_outcome_lock_key(e.white_label_id, e.sport_event_id, e.market_id, e.odd_id, e.phase))
         INTO keys
         FROM old_bets o
         JOIN new_bets n ON n.id = o.id
         JOIN bet_exposure e ON e.bet_id = n.id
        WHERE (o.state IN ('accepted', 'unsettled')) <> (n.state IN ('accepted', 'unsettled'));
       IF keys IS NULL THEN
         RETURN NULL;
       END IF;
       PERFORM risk_lock_outcomes(keys);
       INSERT INTO risk_exposure AS r
           (white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, max_amount)
         SELECT e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id, max(e.market_type_id),
                sum(CASE WHEN n.state IN ('accepted', 'unsettled') THEN e.amount ELSE -e.amount END),
                greatest(sum(CASE WHEN n.state IN ('accepted', 'unsettled') THEN e.amount ELSE -e.amount END), 0)
           FROM old_bets o
           JOIN new_bets n ON n.id = o.id
           JOIN bet_exposure e ON e.bet_id = n.id
          WHERE (o.state IN ('accepted', 'unsettled')) <> (n.state IN ('accepted', 'unsettled'))
          GROUP BY e.white_label_id, e.phase, e.sport_event_id, e.market_id, e.odd_id
       ON CONFLICT (white_label_id, sport_event_id, market_id, odd_id, phase)
         DO UPDATE SET amount = r.amount + excluded.amount,
                       max_amount = greatest(r.max_amount, r.amount + excluded.amount);
       RETURN NULL;
     END $$`,
    `ALTER TABLE bet_selection ADD CONSTRAINT bet_selection_bet_id_fkey FOREIGN KEY (bet_id) REFERENCES bet (id)`,
  ]);
}
