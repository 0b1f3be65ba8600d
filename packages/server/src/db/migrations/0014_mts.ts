import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Partner-reported bets (docs/adr/0023-mts-and-advisory.md). An MTS bet is an ordinary `bet` row (so settlement,
 * exposure, callbacks and reports treat it like any bet) with the partner's id, its source and the player's
 * address; its foreign selections are `bet_selection` rows carrying `foreign_id` (their results come from the
 * partner, never from the feed). `mts_request` keeps each reported bet's request and the answer given, for
 * byte-identical repeats. `mts_foreign_cash_out_order` keeps the partner's cash-out orders as reported; the sum of
 * the accepted ones is kept on the bet (`foreign_cashed_out`), and settlement pays on the stake left. Advisory bets
 * are kept apart (`advisory_bet`, each state a row of `advisory_bet_version`): they never reach exposure.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE bet ADD COLUMN source text NOT NULL DEFAULT 'frame' CHECK (source IN ('frame', 'mts'))`,
    `ALTER TABLE bet ADD COLUMN partner_bet_id text`,
    `ALTER TABLE bet ADD COLUMN client_ip text`,
    `ALTER TABLE bet ADD COLUMN country_code text`,
    `ALTER TABLE bet ADD COLUMN foreign_cashed_out numeric(30, 6) NOT NULL DEFAULT 0`,
    `CREATE UNIQUE INDEX bet_partner_bet_id ON bet (white_label_id, partner_bet_id) WHERE partner_bet_id IS NOT NULL`,
    `ALTER TABLE bet_selection ADD COLUMN foreign_id text`,
    `CREATE TABLE mts_request (
       white_label_id text NOT NULL,
       partner_bet_id text NOT NULL,
       request text NOT NULL,
       answer text NOT NULL,
       bet_id uuid NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (white_label_id, partner_bet_id)
     )`,
    `CREATE TABLE mts_foreign_cash_out_order (
       bet_id uuid NOT NULL,
       order_id text NOT NULL,
       amount numeric(30, 6) NOT NULL CHECK (amount >= 0),
       refund_amount numeric(30, 6) NOT NULL CHECK (refund_amount >= 0),
       status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
       reason text,
       created_at text NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (bet_id, order_id)
     )`,
    `CREATE TABLE advisory_bet (
       white_label_id text NOT NULL,
       bet_id text NOT NULL,
       player_id text NOT NULL,
       status_code int2 NOT NULL,
       version int4 NOT NULL,
       state jsonb NOT NULL,
       restrictions jsonb NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (white_label_id, bet_id)
     )`,
    `CREATE INDEX advisory_bet_created ON advisory_bet (white_label_id, created_at)`,
    `CREATE TABLE advisory_bet_version (
       white_label_id text NOT NULL,
       bet_id text NOT NULL,
       version int4 NOT NULL,
       state jsonb NOT NULL,
       at timestamptz NOT NULL,
       PRIMARY KEY (white_label_id, bet_id, version)
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE advisory_bet_version',
    'DROP TABLE advisory_bet',
    'DROP TABLE mts_foreign_cash_out_order',
    'DROP TABLE mts_request',
    'ALTER TABLE bet_selection DROP COLUMN foreign_id',
    'DROP INDEX bet_partner_bet_id',
    'ALTER TABLE bet DROP COLUMN foreign_cashed_out',
    'ALTER TABLE bet DROP COLUMN country_code',
    'ALTER TABLE bet DROP COLUMN client_ip',
    'ALTER TABLE bet DROP COLUMN partner_bet_id',
    'ALTER TABLE bet DROP COLUMN source',
  ]);
}
