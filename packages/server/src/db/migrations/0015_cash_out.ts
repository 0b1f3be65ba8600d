import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// Cash-out (docs/adr/0024-cash-out.md): the key that signs quotes (they hold for their time to live), the orders of a bet (the platform's
// own and the partner's foreign ones), and the part of each bet's stake that accepted orders cashed out — the stake
// settlement pays on is the stake less that part.
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE bet ADD COLUMN cashed_out_stake numeric(30, 6) NOT NULL DEFAULT 0
       CHECK (cashed_out_stake >= 0 AND cashed_out_stake <= stake)`,
    // The key quotes are signed with: a quote is not stored; any process checks its signature and expiry.
    `CREATE TABLE cash_out_key (
       id int2 PRIMARY KEY CHECK (id = 1),
       secret text NOT NULL
     )`,
    `INSERT INTO cash_out_key (id, secret)
       VALUES (1, md5(random()::text || clock_timestamp()::text) || md5(random()::text || clock_timestamp()::text))`,
    `CREATE TABLE cash_out_order (
       bet_id uuid NOT NULL REFERENCES bet (id),
       id text NOT NULL,
       source text NOT NULL CHECK (source IN ('platform', 'foreign')),
       amount numeric(30, 6) NOT NULL CHECK (amount > 0),
       refund_amount numeric(30, 6) NOT NULL CHECK (refund_amount >= 0),
       status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
       reason text NOT NULL DEFAULT '',
       quote_id text,
       created_at timestamptz NOT NULL,
       decided_at timestamptz,
       PRIMARY KEY (bet_id, id)
     )`,
    // A white label's own cash-out margin; without a row the configured default applies.
    `CREATE TABLE cash_out_margin (
       white_label_id text PRIMARY KEY,
       margin numeric(8, 6) NOT NULL CHECK (margin >= 0 AND margin < 1)
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE cash_out_margin',
    'DROP TABLE cash_out_order',
    'DROP TABLE cash_out_key',
    'ALTER TABLE bet DROP COLUMN cashed_out_stake',
  ]);
}
