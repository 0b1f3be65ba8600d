import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// The ledger keeps one index for what the wallet reads and one for the once-only rule of the movements no bet state
// guards:
// - the primary key becomes (player_id, currency, id): it serves the account's ledger (`GET /players/:id/ledger`, the
//   invariant check's sums per account) that `ledger_account` served, and `id` stays unique on its own (a sequence);
// - `ledger_bet` goes: no statement of the wallet finds ledger rows by bet;
// - `ledger_once` covers only the movements whose once-only rule is not already the bet's state: deposits with a
//   reference, insurance and cash-out payments and their reversals. A hold, capture or release happens once per bet
//   because the bet row decides it (`place` inserts the bet, unique by `bet_id`; `accept` and `decline` move it out
//   of `held` under its row lock), and settle/unsettle repeat per cycle as before.
// So a bet callback's ledger row writes one index entry instead of four.
//
// A bet's state and a ledger row's kind become enum types instead of text columns with a CHECK of their values: the
// values allowed are the same, but an enum is checked once when the statement is planned, where Postgres re-read
// and re-compiled each CHECK's value list in every statement that wrote the table. For the same reason the money
// checks (`held >= 0`, `stake >= 0`, `amount > 0`) become domains over int8: a domain's check is kept compiled by each
// connection, a table's CHECK is read back from its stored text in every statement that writes a row.
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP INDEX ledger_bet',
    'DROP INDEX ledger_account',
    'ALTER TABLE ledger DROP CONSTRAINT ledger_pkey',
    'ALTER TABLE ledger ADD CONSTRAINT ledger_pkey PRIMARY KEY (player_id, currency, id)',
    'DROP INDEX ledger_once',
    `CREATE TYPE ledger_kind AS ENUM ('deposit', 'hold', 'release', 'capture', 'credit', 'debit')`,
    'ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check',
    'ALTER TABLE ledger ALTER COLUMN kind TYPE ledger_kind USING kind::ledger_kind',
    `CREATE UNIQUE INDEX ledger_once ON ledger (kind, reason, ref)
       WHERE reason NOT IN ('place', 'accept', 'decline', 'settle', 'unsettle')`,
    `CREATE TYPE bet_state AS ENUM ('held', 'accepted', 'declined', 'settled', 'unsettled')`,
    'ALTER TABLE bets DROP CONSTRAINT bets_state_check',
    'ALTER TABLE bets ALTER COLUMN state TYPE bet_state USING state::bet_state',
    'CREATE DOMAIN micros_not_negative AS int8 CHECK (VALUE >= 0)',
    'CREATE DOMAIN micros_positive AS int8 CHECK (VALUE > 0)',
    'ALTER TABLE accounts DROP CONSTRAINT accounts_held_check',
    'ALTER TABLE accounts ALTER COLUMN held TYPE micros_not_negative',
    'ALTER TABLE bets DROP CONSTRAINT bets_stake_check',
    'ALTER TABLE bets ALTER COLUMN stake TYPE micros_not_negative',
    'ALTER TABLE ledger DROP CONSTRAINT ledger_amount_check',
    'ALTER TABLE ledger ALTER COLUMN amount TYPE micros_positive',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE ledger ALTER COLUMN amount TYPE int8',
    'ALTER TABLE ledger ADD CONSTRAINT ledger_amount_check CHECK (amount > 0)',
    'ALTER TABLE bets ALTER COLUMN stake TYPE int8',
    'ALTER TABLE bets ADD CONSTRAINT bets_stake_check CHECK (stake >= 0)',
    'ALTER TABLE accounts ALTER COLUMN held TYPE int8',
    'ALTER TABLE accounts ADD CONSTRAINT accounts_held_check CHECK (held >= 0)',
    'DROP DOMAIN micros_positive',
    'DROP DOMAIN micros_not_negative',
    'ALTER TABLE bets ALTER COLUMN state TYPE text',
    `ALTER TABLE bets ADD CONSTRAINT bets_state_check
       CHECK (state IN ('held', 'accepted', 'declined', 'settled', 'unsettled'))`,
    'DROP TYPE bet_state',
    'DROP INDEX ledger_once',
    'ALTER TABLE ledger ALTER COLUMN kind TYPE text',
    `ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check
       CHECK (kind IN ('deposit', 'hold', 'release', 'capture', 'credit', 'debit'))`,
    'DROP TYPE ledger_kind',
    `CREATE UNIQUE INDEX ledger_once ON ledger (kind, reason, ref) WHERE reason NOT IN ('settle', 'unsettle')`,
    'ALTER TABLE ledger DROP CONSTRAINT ledger_pkey',
    'ALTER TABLE ledger ADD CONSTRAINT ledger_pkey PRIMARY KEY (id)',
    'CREATE INDEX ledger_account ON ledger (player_id, currency, id)',
    'CREATE INDEX ledger_bet ON ledger (bet_id)',
  ]);
}
