import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * A white label's own bet builder settings (docs/adr/0045-bet-builder-api.md): the builder margin (offered odds = fair
 * odds / (1 + margin)) and the most legs a builder may take. Without a row the platform's defaults apply (margin 0.1,
 * 10 legs); a null column takes that column's default.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE bet_builder_settings (
       white_label_id text PRIMARY KEY,
       margin numeric(8, 6) CHECK (margin >= 0 AND margin < 1),
       max_legs int2 CHECK (max_legs BETWEEN 1 AND 10)
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE bet_builder_settings']);
}
