import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // A bet (spec 01 "States and transitions"). `state` is the internal named state; D6 codes are mapped at the edge.
    `CREATE TABLE bet (
       id uuid PRIMARY KEY,
       white_label_id text NOT NULL,
       player_id text NOT NULL,
       currency text NOT NULL,
       bet_type text NOT NULL CHECK (bet_type IN ('single', 'express', 'system')),
       system_sizes jsonb NOT NULL,
       stake numeric(30, 6) NOT NULL,
       odds_strategy int2 NOT NULL,
       base_odds numeric(40, 12) NOT NULL,
       total_odds numeric(40, 12) NOT NULL,
       state text NOT NULL CHECK (state IN ('hold_requested', 'accepted', 'declined', 'place_error',
         'force_declined', 'settled', 'unsettled', 'cashed_out')),
       restrictions jsonb NOT NULL DEFAULT '[]'::jsonb,
       freebet_id text,
       insurance_id text,
       boost_id text,
       foreign_params jsonb NOT NULL DEFAULT '{}'::jsonb,
       session_token_hash text,
       client_key text,
       created_at timestamptz NOT NULL,
       placement_deadline timestamptz NOT NULL,
       decided_at timestamptz,
       payout numeric(30, 6),
       settle_amount numeric(30, 6),
       settle_type int2,
       settled_at timestamptz,
       settlement_seq int4 NOT NULL DEFAULT 0,
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE UNIQUE INDEX bet_client_key ON bet (white_label_id, player_id, client_key) WHERE client_key IS NOT NULL`,
    `CREATE INDEX bet_player_history ON bet (white_label_id, player_id, created_at DESC, id DESC)`,
    `CREATE INDEX bet_unfinished_placement ON bet (placement_deadline) WHERE state = 'hold_requested'`,
    `CREATE INDEX bet_wl_created ON bet (white_label_id, created_at)`,
    // Selections (legs) of a bet: the odds the player asked for and the odds accepted, the leg's result, and the
    // sport event facts the callbacks carry (spec 01 "Bet odd" meta), captured at placement.
    `CREATE TABLE bet_selection (
       bet_id uuid NOT NULL REFERENCES bet (id),
       idx int2 NOT NULL,
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       requested_odds numeric(40, 12) NOT NULL,
       odds numeric(40, 12) NOT NULL,
       status int2 NOT NULL DEFAULT 0,
       dead_heat numeric(40, 12),
       status_reason text NOT NULL DEFAULT '',
       odd_updated_at timestamptz NOT NULL,
       match_status int2 NOT NULL,
       event_info jsonb NOT NULL,
       PRIMARY KEY (bet_id, idx)
     )`,
    `CREATE INDEX bet_selection_market ON bet_selection (sport_event_id, market_id, odd_id)`,
    // Last accepted bet of a player on a sport event, for the bet_interval restriction.
    `CREATE TABLE player_event_bet (
       white_label_id text NOT NULL,
       player_id text NOT NULL,
       sport_event_id text NOT NULL,
       last_bet_at timestamptz NOT NULL,
       PRIMARY KEY (white_label_id, player_id, sport_event_id)
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE player_event_bet', 'DROP TABLE bet_selection', 'DROP TABLE bet']);
}
