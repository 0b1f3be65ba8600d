import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // Freebets (spec 01 "Freebet"; docs/adr/0009-bonuses.md): available → reserved (in the transaction that creates
    // the bet) → used (the bet settled), or back to available (declined, place error, force decline). `expired` is
    // not stored: an available freebet past expires_at reads as expired. `bet_id` is the bet it is reserved for or
    // was used on. `conditions` and `foreign_params` are kept as sent.
    `CREATE TABLE freebet (
       id uuid PRIMARY KEY,
       white_label_id text NOT NULL,
       player_id text NOT NULL,
       currency_code text NOT NULL,
       amount numeric(30, 6) NOT NULL CHECK (amount > 0),
       expires_at timestamptz,
       conditions jsonb NOT NULL,
       foreign_params jsonb NOT NULL DEFAULT '{}'::jsonb,
       status text NOT NULL CHECK (status IN ('available', 'reserved', 'used', 'cancelled')),
       bet_id uuid,
       reserved_at timestamptz,
       used_at timestamptz,
       idempotence_id text,
       request_hash text,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       CHECK ((status IN ('reserved', 'used')) = (bet_id IS NOT NULL))
     )`,
    `CREATE UNIQUE INDEX freebet_idempotence ON freebet (white_label_id, idempotence_id)
       WHERE idempotence_id IS NOT NULL`,
    `CREATE INDEX freebet_player ON freebet (white_label_id, player_id, created_at DESC, id DESC)`,
    `CREATE INDEX freebet_wl ON freebet (white_label_id, created_at DESC, id DESC)`,
    `CREATE INDEX freebet_bet ON freebet (bet_id) WHERE bet_id IS NOT NULL`,
    // Bet insurances (spec 01 "Bet insurance"): available → applied (its bet accepted, claimed in the accept
    // transaction) → paid | declined (at each settle of the bet); paid → cancelled (the bet unsettled). The payout
    // rule is stored exactly: amount (6 decimals), percent and max_amount (12).
    `CREATE TABLE insurance (
       id uuid PRIMARY KEY,
       white_label_id text NOT NULL,
       player_id text NOT NULL,
       currency_code text NOT NULL,
       expires_at timestamptz,
       conditions jsonb NOT NULL,
       stake_amount_range jsonb,
       payout_type text NOT NULL CHECK (payout_type IN ('amount', 'percent')),
       amount numeric(30, 6),
       percent numeric(30, 12),
       max_amount numeric(30, 12),
       max_odds_count_lose int4,
       foreign_params jsonb NOT NULL DEFAULT '{}'::jsonb,
       status text NOT NULL CHECK (status IN ('available', 'applied', 'paid', 'declined', 'cancelled')),
       bet_id uuid,
       applied_at timestamptz,
       refund_amount numeric(30, 6),
       resolved_at timestamptz,
       idempotence_id text,
       request_hash text,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       CHECK ((status = 'available') = (bet_id IS NULL)),
       CHECK ((payout_type = 'amount') = (amount IS NOT NULL)),
       CHECK ((payout_type = 'percent') = (percent IS NOT NULL))
     )`,
    `CREATE UNIQUE INDEX insurance_idempotence ON insurance (white_label_id, idempotence_id)
       WHERE idempotence_id IS NOT NULL`,
    `CREATE INDEX insurance_player ON insurance (white_label_id, player_id, created_at DESC, id DESC)`,
    `CREATE INDEX insurance_wl ON insurance (white_label_id, created_at DESC, id DESC)`,
    `CREATE INDEX insurance_bet ON insurance (bet_id) WHERE bet_id IS NOT NULL`,
    // Bet boosts (DECISIONS D19): a multiplier for `quantity` bets of the white label (or of one player).
    // remaining_quantity falls when a bet takes the boost (at its creation) and rises again if that bet is declined.
    `CREATE TABLE bet_boost (
       id uuid PRIMARY KEY,
       white_label_id text NOT NULL,
       player_id text,
       name text NOT NULL DEFAULT '',
       multiplier numeric(20, 6) NOT NULL CHECK (multiplier > 1),
       conditions jsonb NOT NULL,
       quantity int4 NOT NULL CHECK (quantity > 0),
       remaining_quantity int4 NOT NULL CHECK (remaining_quantity >= 0 AND remaining_quantity <= quantity),
       expires_at timestamptz,
       foreign_params jsonb NOT NULL DEFAULT '{}'::jsonb,
       idempotence_id text,
       request_hash text,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
    `CREATE UNIQUE INDEX bet_boost_idempotence ON bet_boost (white_label_id, idempotence_id)
       WHERE idempotence_id IS NOT NULL`,
    `CREATE INDEX bet_boost_wl ON bet_boost (white_label_id, created_at DESC, id DESC)`,
    // The boost a bet took: reserved at the bet's creation, used when it is accepted, released when it is declined.
    `CREATE TABLE bet_boost_use (
       bet_id uuid PRIMARY KEY,
       boost_id uuid NOT NULL REFERENCES bet_boost (id),
       state text NOT NULL CHECK (state IN ('reserved', 'used', 'released')),
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
    `CREATE INDEX bet_boost_use_boost ON bet_boost_use (boost_id)`,
    // The multiplier a boosted bet was placed with (exact; total_odds is base_odds × it, rounded to 12 decimals),
    // so settlement boosts the payout by exactly it (D19).
    `ALTER TABLE bet ADD COLUMN boost_multiplier numeric(20, 6)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bet DROP COLUMN boost_multiplier',
    'DROP TABLE bet_boost_use',
    'DROP TABLE bet_boost',
    'DROP TABLE insurance',
    'DROP TABLE freebet',
  ]);
}
