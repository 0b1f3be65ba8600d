import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * A bet inserted in an open state (accepted, unsettled) adds its legs' exposure in the statement that inserts it
 * (docs/adr/0052-reported-bets-created-decided.md): the bet state trigger's rule applied to a bet that did not exist
 * before — not open before, so an open one adds `bet_exposure`'s amounts, any other adds nothing. A reported bet
 * (`POST /bets`) is created in its decided state with its leg exposures written first in the same transaction
 * (`bet_exposure` has no key to `bet`), so the exposure moves with the insert as it moved with the transition. One
 * ordered lock acquisition and one upsert per statement, from the statement's new rows (a transition table); an
 * insert of held bets (the frame's placement) finds nothing to do.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE FUNCTION risk_bet_insert_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
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
    `CREATE TRIGGER bet_insert_exposure AFTER INSERT ON bet
       REFERENCING NEW TABLE AS new_bets
       FOR EACH STATEMENT EXECUTE FUNCTION risk_bet_insert_exposure()`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TRIGGER bet_insert_exposure ON bet',
    'DROP FUNCTION risk_bet_insert_exposure()',
  ]);
}
