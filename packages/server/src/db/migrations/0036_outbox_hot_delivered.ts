import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Marking a born-leased callback delivered becomes a HOT update (docs/adr/0063-outbox-hot-delivered.md): no index of
 * `callback_delivery` names a column that update changes for such a row.
 *
 * - `queued`: the row waits in the dispatchers' queue (pending, async, and not held by the process that wrote it
 *   born leased). The claim's index `callback_delivery_due` lists these rows (its predicate was `status = 'pending'
 *   AND mode = 'async'`); a queued row leaves it when it is delivered, fails or is withdrawn, as before.
 * - `born_leased`: the row was written leased to the dispatcher of the process that wrote it (set at insert, never
 *   changed). Such a row is not queued: its delivery changes neither `queued` nor any other indexed column.
 *   `callback_delivery_born_leased` (created_at WHERE born_leased) is how the recovery finds the ones whose process
 *   died before recording them; `callback_recovery_mark` is how far it has looked.
 * - `callback_delivery_bet_pending` (bet_id, id WHERE status = 'pending') goes: the claim's head-of-queue check and
 *   the successor checks probe `callback_delivery_bet` (bet_id, id) and read the status on the bet's few rows.
 * - `fillfactor` leaves room on each page for the delivered version (HOT needs the same page); `bet_selection` gets
 *   more for the accepted odds that moved.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE callback_delivery ADD COLUMN queued boolean NOT NULL DEFAULT false,
       ADD COLUMN born_leased boolean NOT NULL DEFAULT false`,
    // every pending async row so far is the queue's (a row born leased and still in flight is claimed once its
    // lease expires, as before)
    `UPDATE callback_delivery SET queued = true WHERE status = 'pending' AND mode = 'async'`,
    'DROP INDEX callback_delivery_due',
    'CREATE INDEX callback_delivery_due ON callback_delivery (next_attempt_at) WHERE queued',
    'DROP INDEX callback_delivery_bet_pending',
    'CREATE INDEX callback_delivery_born_leased ON callback_delivery (created_at) WHERE born_leased',
    `CREATE TABLE callback_recovery_mark (
       id int2 PRIMARY KEY CHECK (id = 1),
       through timestamptz NOT NULL
     )`,
    `INSERT INTO callback_recovery_mark (id, through) VALUES (1, now() - interval '1 minute')`,
    'ALTER TABLE callback_delivery SET (fillfactor = 60)',
    'ALTER TABLE bet_selection SET (fillfactor = 55)',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bet_selection SET (fillfactor = 80)',
    'ALTER TABLE callback_delivery RESET (fillfactor)',
    'DROP TABLE callback_recovery_mark',
    'DROP INDEX callback_delivery_born_leased',
    `CREATE INDEX callback_delivery_bet_pending ON callback_delivery (bet_id, id) WHERE status = 'pending'`,
    'DROP INDEX callback_delivery_due',
    `CREATE INDEX callback_delivery_due ON callback_delivery (next_attempt_at) WHERE status = 'pending' AND mode = 'async'`,
    'ALTER TABLE callback_delivery DROP COLUMN born_leased, DROP COLUMN queued',
  ]);
}
