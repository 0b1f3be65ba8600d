import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // The exposure each leg of an accepted bet adds to its outcome (D37; docs/adr/0018-risk-engine.md): written by
    // core's apportioning in the accept transaction, never changed afterwards. `eur_rate` is the rate it was
    // converted with, so `bookie risk recompute` can recompute it from the bet.
    `CREATE TABLE bet_exposure (
       bet_id uuid NOT NULL,
       idx int4 NOT NULL,
       white_label_id text NOT NULL,
       phase text NOT NULL CHECK (phase IN ('live', 'prematch')),
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       market_type_id text NOT NULL,
       amount numeric(30, 6) NOT NULL CHECK (amount >= 0),
       eur_rate numeric(30, 12) NOT NULL CHECK (eur_rate > 0),
       PRIMARY KEY (bet_id, idx)
     )`,
    // Exposure per outcome (D37), live and prematch apart, EUR: Σ bet_exposure of the bets that are open (accepted
    // or unsettled), and the largest it has been. Kept by the trigger below in the transaction of every state change
    // of a bet.
    `CREATE TABLE risk_exposure (
       white_label_id text NOT NULL,
       phase text NOT NULL CHECK (phase IN ('live', 'prematch')),
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       market_type_id text NOT NULL,
       amount numeric(30, 6) NOT NULL,
       max_amount numeric(30, 6) NOT NULL DEFAULT 0,
       PRIMARY KEY (white_label_id, sport_event_id, market_id, odd_id, phase)
     )`,
    // A bet entering or leaving the open states moves its legs' exposure, in the same transaction, whatever made it
    // move (accept, settle, unsettle, void, cancel, refund, cash-out, a partner's decline). One advisory lock
    // serialises exposure changes with placement's re-check of the limits (docs/adr/0018); one key, so two
    // transactions can never take it in different orders.
    `CREATE FUNCTION risk_bet_state_exposure() RETURNS trigger LANGUAGE plpgsql AS $$
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
    `CREATE TRIGGER bet_state_exposure AFTER UPDATE OF state ON bet
       FOR EACH ROW EXECUTE FUNCTION risk_bet_state_exposure()`,
    // Liability limit per outcome (D38), per white label and market type ('*': every market type), live and
    // prematch apart, EUR.
    `CREATE TABLE risk_limit (
       white_label_id text NOT NULL,
       market_type_id text NOT NULL,
       phase text NOT NULL CHECK (phase IN ('live', 'prematch')),
       liability_eur numeric(30, 6) NOT NULL CHECK (liability_eur >= 0),
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (white_label_id, market_type_id, phase)
     )`,
    // Risk groups (D38): the stake factor, and the max payout (EUR) a VIP's recommended_max_payout is matched to.
    `CREATE TABLE risk_group (
       name text PRIMARY KEY CHECK (name ~ '^[a-z0-9_-]{1,40}$'),
       stake_factor numeric(20, 6) NOT NULL CHECK (stake_factor >= 0),
       max_payout_eur numeric(30, 6) CHECK (max_payout_eur > 0),
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `INSERT INTO risk_group (name, stake_factor, max_payout_eur) VALUES
       ('default', 1, NULL), ('vip', 5, 250000), ('restricted', 0.2, NULL), ('blocked', 0, NULL)`,
    // A player's risk (D38, D40): the group (and who set it), whether the first request was seen (spec 03 VIP:
    // only the first recommended_max_payout counts), and the closing-line values behind the score.
    `CREATE TABLE player_risk (
       white_label_id text NOT NULL,
       player_id text NOT NULL,
       group_name text NOT NULL REFERENCES risk_group (name),
       group_source text NOT NULL CHECK (group_source IN ('default', 'recommended', 'partner', 'operator')),
       clv_sum numeric(40, 12) NOT NULL DEFAULT 0,
       clv_count int4 NOT NULL DEFAULT 0,
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (white_label_id, player_id)
     )`,
    // The closing price of each odd (D40): its value in the last snapshot before the sport event left "not started",
    // written by the trading writer in the transaction that changes the status.
    `CREATE TABLE risk_closing_odds (
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       odds numeric(40, 12) NOT NULL,
       PRIMARY KEY (sport_event_id, market_id, odd_id)
     )`,
    // Odds shading (D39): the base odds trading set for an outcome whose published odds are shaded, and the shaded
    // value last published (a published value that differs from it was set by trading: the new base).
    `CREATE TABLE risk_shading (
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       base_odds numeric(40, 12) NOT NULL,
       shaded_odds numeric(40, 12) NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (sport_event_id, market_id, odd_id)
     )`,
    // Bet delays (D34): per sport event, market type or risk group, live and prematch apart, seconds.
    `CREATE TABLE risk_delay (
       level text NOT NULL CHECK (level IN ('sport_event', 'market_type', 'risk_group')),
       key text NOT NULL,
       phase text NOT NULL CHECK (phase IN ('live', 'prematch')),
       seconds numeric(10, 3) NOT NULL CHECK (seconds >= 0),
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (level, key, phase)
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE risk_delay',
    'DROP TABLE risk_closing_odds',
    'DROP TABLE risk_shading',
    'DROP TABLE player_risk',
    'DROP TABLE risk_group',
    'DROP TABLE risk_limit',
    'DROP TRIGGER bet_state_exposure ON bet',
    'DROP FUNCTION risk_bet_state_exposure()',
    'DROP TABLE risk_exposure',
    'DROP TABLE bet_exposure',
  ]);
}
