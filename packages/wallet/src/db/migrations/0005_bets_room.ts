import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// The callbacks' statements that arrive together run in one transaction (group commit). The bets placed together
// fill a page together and are accepted together, in one transaction again, and the old version of a row updated
// by a transaction that has not committed cannot be pruned: every accept of that transaction needs room on the bet's
// page for its new version, or it goes to another page with a new index entry (not HOT). Bets pages now keep half of
// each page free (`fillfactor`, for pages filled from now on): room for one new version of each bet of the page.
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bets SET (fillfactor = 50)']);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bets SET (fillfactor = 90)']);
}
