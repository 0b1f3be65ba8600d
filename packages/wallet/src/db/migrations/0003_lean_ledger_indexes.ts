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
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP INDEX ledger_bet',
    'DROP INDEX ledger_account',
    'ALTER TABLE ledger DROP CONSTRAINT ledger_pkey',
    'ALTER TABLE ledger ADD CONSTRAINT ledger_pkey PRIMARY KEY (player_id, currency, id)',
    'DROP INDEX ledger_once',
    `CREATE UNIQUE INDEX ledger_once ON ledger (kind, reason, ref)
       WHERE reason NOT IN ('place', 'accept', 'decline', 'settle', 'unsettle')`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP INDEX ledger_once',
    `CREATE UNIQUE INDEX ledger_once ON ledger (kind, reason, ref) WHERE reason NOT IN ('settle', 'unsettle')`,
    'ALTER TABLE ledger DROP CONSTRAINT ledger_pkey',
    'ALTER TABLE ledger ADD CONSTRAINT ledger_pkey PRIMARY KEY (id)',
    'CREATE INDEX ledger_account ON ledger (player_id, currency, id)',
    'CREATE INDEX ledger_bet ON ledger (bet_id)',
  ]);
}
