import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // Wake the dispatchers of every process when async callbacks are enqueued: one NOTIFY per statement, sent at
    // commit, without an extra round trip from the application.
    `CREATE FUNCTION bookie_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('bookie_outbox', '');
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER callback_delivery_notify AFTER INSERT ON callback_delivery
       FOR EACH STATEMENT EXECUTE FUNCTION bookie_outbox_notify()`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TRIGGER callback_delivery_notify ON callback_delivery',
    'DROP FUNCTION bookie_outbox_notify()',
  ]);
}
