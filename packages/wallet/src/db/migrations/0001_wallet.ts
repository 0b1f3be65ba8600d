import { idempotencyTableDdl } from '@bookie/sdk';
import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE accounts (
       player_id text NOT NULL,
       currency text NOT NULL,
       available int8 NOT NULL DEFAULT 0,
       held int8 NOT NULL DEFAULT 0 CHECK (held >= 0),
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (player_id, currency)
     )`,
    `CREATE TABLE bets (
       bet_id text PRIMARY KEY,
       player_id text NOT NULL,
       currency text NOT NULL,
       stake int8 NOT NULL CHECK (stake >= 0),
       freebet boolean NOT NULL DEFAULT false,
       state text NOT NULL CHECK (state IN ('held', 'accepted', 'declined', 'settled', 'unsettled')),
       settled int8 NOT NULL DEFAULT 0,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE ledger (
       id bigserial PRIMARY KEY,
       player_id text NOT NULL,
       currency text NOT NULL,
       kind text NOT NULL CHECK (kind IN ('deposit', 'hold', 'release', 'capture', 'credit', 'debit')),
       reason text NOT NULL,
       amount int8 NOT NULL CHECK (amount > 0),
       bet_id text,
       ref text,
       request_id text,
       available_after int8 NOT NULL,
       held_after int8 NOT NULL,
       at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX ledger_account ON ledger (player_id, currency, id)`,
    `CREATE INDEX ledger_bet ON ledger (bet_id)`,
    // one money movement per (kind, reason, ref) for everything but settle/unsettle, which repeat per cycle (D12)
    `CREATE UNIQUE INDEX ledger_once ON ledger (kind, reason, ref) WHERE reason NOT IN ('settle', 'unsettle')`,
    ...idempotencyTableDdl('callback_requests'),
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE callback_requests',
    'DROP TABLE ledger',
    'DROP TABLE bets',
    'DROP TABLE accounts',
  ]);
}
