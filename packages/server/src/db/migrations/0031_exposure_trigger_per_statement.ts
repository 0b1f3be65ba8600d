import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The bet state trigger moves exposure once per statement instead of once per bet (docs/adr/0049-cheap-statements.md):
 * an `UPDATE` of `bet` that moves bets into or out of the open states (accepted, unsettled) adds or removes their legs'
 * exposure in one ordered lock acquisition and one upsert per statement, from the statement's old and new rows
 * (transition tables), in the same transaction as the state change. Transition tables cannot name columns, so the
 * trigger runs after every `UPDATE` of `bet`; one that changes no bet's open-ness finds nothing to do.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TRIGGER bet_state_exposure ON bet',
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
    `CREATE TRIGGER bet_state_exposure AFTER UPDATE ON bet
       REFERENCING OLD TABLE AS old_bets NEW TABLE AS new_bets
       FOR EACH STATEMENT EXECUTE FUNCTION risk_bet_state_exposure()`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TRIGGER bet_state_exposure ON bet',
    `CREATE OR REPLACE FUNCTION risk_bet_state_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       was_open boolean := OLD.state IN ('accepted', 'unsettled');
       is_open boolean := NEW.state IN ('accepted', 'unsettled');
     BEGIN
       IF was_open = is_open OR NOT EXISTS (SELECT 1 FROM bet_exposure WHERE bet_id = NEW.id) THEN
         RETURN NEW;
       END IF;
       PERFORM risk_lock_outcomes(ARRAY(
         SELECT risk_outcome_lock_key(white_label_id, sport_event_id, market_id, odd_id, phase)
           FROM bet_exposure WHERE bet_id = NEW.id));
       INSERT INTO risk_exposure AS r
           (white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, max_amount)
         SELECT white_label_id, phase, sport_event_id, market_id, odd_id, max(market_type_id),
                CASE WHEN is_open THEN sum(amount) ELSE -sum(amount) END,
                CASE WHEN is_open THEN sum(amount) ELSE 0 END
           FROM bet_exposure WHERE bet_id = NEW.id
          GROUP BY white_label_id, phase, sport_event_id, market_id, odd_id
       ON CONFLICT (white_label_id, sport_event_id, market_id, odd_id, phase)
         DO UPDATE SET amount = r.amount + excluded.amount,
                       max_amount = greatest(r.max_amount, r.amount + excluded.amount);
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER bet_state_exposure AFTER UPDATE OF state ON bet
       FOR EACH ROW EXECUTE FUNCTION risk_bet_state_exposure()`,
  ]);
}
