import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The outbox's retention (docs/adr/0074-callback-retention.md): `callback_retention_mark` is how far, in outbox ids,
 * the retention has looked. Every row at or below `through_id` was examined once it was older than the retention:
 * the delivered ones it may remove were removed; what it keeps (the callbacks the reconciliation report reads, and
 * anything not delivered) stays. No index is added to `callback_delivery`: the retention walks its primary key from
 * the mark, so marking a row delivered stays a HOT update.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE callback_retention_mark (
       id int2 PRIMARY KEY CHECK (id = 1),
       through_id int8 NOT NULL
     )`,
    'INSERT INTO callback_retention_mark (id, through_id) VALUES (1, 0)',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE callback_retention_mark']);
}
