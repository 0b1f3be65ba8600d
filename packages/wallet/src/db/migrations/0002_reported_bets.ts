import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// A bet the partner took and reported itself (Bookie's risk management mode): the wallet first hears of it in its
// /bet/settle, holds no stake for it, and only credits and debits what the settles and unsettles say.
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bets ADD COLUMN reported boolean NOT NULL DEFAULT false']);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bets DROP COLUMN reported']);
}
