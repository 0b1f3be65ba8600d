import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// The text keys the bet callbacks look up and insert compare as bytes (collation "C"): the request ids of stored
// answers, the bet ids, and the accounts' and ledger rows' player and currency. Under a linguistic collation (the
// database's default, e.g. en_US.UTF-8) every comparison an index makes on them — a few dozen per lookup or insert —
// copies both strings and calls the C library's strcoll; under "C" it is one memcmp. Equality is the same in both
// (both are deterministic), so every key and unique rule keeps its meaning; only ORDER BY on these columns follows
// byte order (upper case before lower case), which the wallet uses for currencies and player ids in listings.
// Changing a column's collation rebuilds its indexes, not the table.
//
// A bet row is written twice soon after each other (inserted by /bet/place, updated by /bet/accept) and again at
// settlement. Filled pages leave no room for the update's new version, which then goes to another page with a new
// index entry (not HOT); bets pages now keep 10 % free for it (`fillfactor`, for pages filled from now on).
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE callback_requests ALTER COLUMN request_id TYPE text COLLATE "C"`,
    `ALTER TABLE bets ALTER COLUMN bet_id TYPE text COLLATE "C"`,
    `ALTER TABLE accounts ALTER COLUMN player_id TYPE text COLLATE "C", ALTER COLUMN currency TYPE text COLLATE "C"`,
    `ALTER TABLE ledger ALTER COLUMN player_id TYPE text COLLATE "C", ALTER COLUMN currency TYPE text COLLATE "C",
       ALTER COLUMN reason TYPE text COLLATE "C", ALTER COLUMN ref TYPE text COLLATE "C"`,
    'ALTER TABLE bets SET (fillfactor = 90)',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bets RESET (fillfactor)',
    `ALTER TABLE ledger ALTER COLUMN player_id TYPE text COLLATE "default", ALTER COLUMN currency TYPE text COLLATE "default",
       ALTER COLUMN reason TYPE text COLLATE "default", ALTER COLUMN ref TYPE text COLLATE "default"`,
    `ALTER TABLE accounts ALTER COLUMN player_id TYPE text COLLATE "default", ALTER COLUMN currency TYPE text COLLATE "default"`,
    `ALTER TABLE bets ALTER COLUMN bet_id TYPE text COLLATE "default"`,
    `ALTER TABLE callback_requests ALTER COLUMN request_id TYPE text COLLATE "default"`,
  ]);
}
