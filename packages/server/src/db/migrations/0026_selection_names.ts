import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * What a selection was named when it was placed (`names`: the sport event, tournament, market and outcome names and
 * the templates they were filled from), written with the selection, so a player's history shows what was bet on after
 * the event has left the book. Null for selections placed before this column and for selections from elsewhere.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bet_selection ADD COLUMN names jsonb']);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bet_selection DROP COLUMN names']);
}
