import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Exposure locks per outcome instead of the one advisory lock `risk_exposure` (docs/adr/0046-decision-speed.md):
 * a transaction that moves or re-checks exposure locks the outcomes it touches — one advisory key per outcome (white
 * label, sport event, market, odd, phase), taken in ascending key order by `risk_lock_outcomes` — so decisions on
 * other outcomes, in this process or another, go on at the same time. A hash collision only makes two outcomes
 * share a lock.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE FUNCTION risk_outcome_lock_key(wl text, event text, market text, odd text, phase text) RETURNS bigint
       LANGUAGE sql IMMUTABLE AS
     $$ SELECT hashtextextended(wl || chr(31) || event || chr(31) || market || chr(31) || odd || chr(31) || phase, 46) $$`,
    `CREATE FUNCTION risk_lock_outcomes(keys bigint[]) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
     DECLARE k bigint;
     BEGIN
       FOR k IN SELECT DISTINCT u FROM unnest(keys) AS u ORDER BY u LOOP
         PERFORM pg_advisory_xact_lock(k);
       END LOOP;
     END $$`,
    `CREATE OR REPLACE FUNCTION risk_locked_exposure(wl text, events text[], markets text[], odds text[], phases text[])
       RETURNS TABLE (sport_event_id text, market_id text, odd_id text, phase text, amount text)
       LANGUAGE plpgsql VOLATILE AS $$
     BEGIN
       PERFORM risk_lock_outcomes(ARRAY(
         SELECT risk_outcome_lock_key(wl, k.e, k.m, k.o, k.p) FROM unnest(events, markets, odds, phases) AS k(e, m, o, p)));
       RETURN QUERY
         SELECT r.sport_event_id, r.market_id, r.odd_id, r.phase, r.amount::text
           FROM risk_exposure r
           JOIN unnest(events, markets, odds, phases) AS k(sport_event_id, market_id, odd_id, phase)
             ON r.sport_event_id = k.sport_event_id AND r.market_id = k.market_id AND r.odd_id = k.odd_id
            AND r.phase = k.phase
          WHERE r.white_label_id = wl;
     END $$`,
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
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE OR REPLACE FUNCTION risk_locked_exposure(wl text, events text[], markets text[], odds text[], phases text[])
       RETURNS TABLE (sport_event_id text, market_id text, odd_id text, phase text, amount text)
       LANGUAGE plpgsql VOLATILE AS $$
     BEGIN
       PERFORM pg_advisory_xact_lock(hashtext('risk_exposure')::bigint);
       RETURN QUERY
         SELECT r.sport_event_id, r.market_id, r.odd_id, r.phase, r.amount::text
           FROM risk_exposure r
           JOIN unnest(events, markets, odds, phases) AS k(sport_event_id, market_id, odd_id, phase)
             ON r.sport_event_id = k.sport_event_id AND r.market_id = k.market_id AND r.odd_id = k.odd_id
            AND r.phase = k.phase
          WHERE r.white_label_id = wl;
     END $$`,
    `CREATE OR REPLACE FUNCTION risk_bet_state_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE
       was_open boolean := OLD.state IN ('accepted', 'unsettled');
       is_open boolean := NEW.state IN ('accepted', 'unsettled');
     BEGIN
       IF was_open = is_open OR NOT EXISTS (SELECT 1 FROM bet_exposure WHERE bet_id = NEW.id) THEN
         RETURN NEW;
       END IF;
       PERFORM pg_advisory_xact_lock(hashtext('risk_exposure')::bigint);
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
    'DROP FUNCTION risk_lock_outcomes(bigint[])',
    'DROP FUNCTION risk_outcome_lock_key(text, text, text, text, text)',
  ]);
}
