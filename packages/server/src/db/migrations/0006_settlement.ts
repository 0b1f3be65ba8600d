import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // The D6 code of a settled bet: 3 settled, 5 refunded (every leg void), 6 refunded manually (docs/adr/0008).
    `ALTER TABLE bet ADD COLUMN settle_status int2`,
    // Where a selection's result comes from: the feed (kept in step with the log by the settlement consumer), a
    // bet_rollback entry, or an operator action; the feed never overrides the last two.
    `ALTER TABLE bet_selection ADD COLUMN result_source text NOT NULL DEFAULT 'feed'
       CHECK (result_source IN ('feed', 'rollback', 'manual'))`,
    // Keyset pages over the selections of one market (the settlement batches), and of one event (rollbacks).
    // It covers the old (sport_event_id, market_id, odd_id) index, which goes.
    `CREATE INDEX bet_selection_settlement ON bet_selection (sport_event_id, market_id, odd_id, bet_id, idx)`,
    `DROP INDEX bet_selection_market`,
    // The sweep of recently accepted bets (a bet accepted while its market was being resulted).
    `CREATE INDEX bet_accepted_decided ON bet (decided_at) WHERE state = 'accepted'`,
    // The settlement ledger (DECISIONS D12): one row per /bet/settle and /bet/unsettle, written in the transaction
    // that enqueues the callback. Σ settle − Σ unsettle of a bet = its current settle amount.
    `CREATE TABLE bet_settlement (
       bet_id uuid NOT NULL REFERENCES bet (id),
       seq int4 NOT NULL,
       kind text NOT NULL CHECK (kind IN ('settle', 'unsettle')),
       amount numeric(30, 6) NOT NULL CHECK (amount >= 0),
       settle_type int2,
       payout numeric(30, 6),
       white_label_id text NOT NULL,
       currency text NOT NULL,
       request_id uuid NOT NULL,
       cause text NOT NULL,
       at timestamptz NOT NULL,
       PRIMARY KEY (bet_id, seq)
     )`,
    `CREATE INDEX bet_settlement_at ON bet_settlement (at)`,
    // The results the consumer applies, per odd (no row = not resulted): what the selections of every open bet on
    // that odd must show. `applied` turns true once every selection was brought in line (batches may be cut short).
    `CREATE TABLE settlement_result (
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       status int2 NOT NULL,
       dead_heat numeric(40, 12),
       status_reason text NOT NULL DEFAULT '',
       applied boolean NOT NULL DEFAULT false,
       version int8 NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (sport_event_id, market_id, odd_id)
     )`,
    // bet_rollback entries applied (spec 02), kept so a bet accepted later inside a window is rolled back too.
    `CREATE TABLE settlement_rollback (
       version int8 PRIMARY KEY,
       sport_event_id text NOT NULL,
       market_ids text[] NOT NULL,
       reason text NOT NULL,
       dt_start timestamptz NOT NULL,
       dt_end timestamptz NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX settlement_rollback_event ON settlement_rollback (sport_event_id)`,
    // Leadership of the settlement consumer: one lease row; `epoch` fences the writes of a leader that lost it.
    `CREATE TABLE settlement_lease (
       name text PRIMARY KEY,
       owner text,
       epoch int8 NOT NULL DEFAULT 0,
       expires_at timestamptz
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE settlement_lease',
    'DROP TABLE settlement_rollback',
    'DROP TABLE settlement_result',
    'DROP TABLE bet_settlement',
    'DROP INDEX bet_accepted_decided',
    'CREATE INDEX bet_selection_market ON bet_selection (sport_event_id, market_id, odd_id)',
    'DROP INDEX bet_selection_settlement',
    'ALTER TABLE bet_selection DROP COLUMN result_source',
    'ALTER TABLE bet DROP COLUMN settle_status',
  ]);
}
