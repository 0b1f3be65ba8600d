import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * A bet's state transitions become HOT updates (docs/adr/0058-bet-hot-transitions.md): no index of `bet` names a
 * column a transition changes (`state`, `decided_at`, the settlement columns), so Postgres writes the new row
 * version on the same page without touching any index.
 *
 * - `bet_unfinished_placement` (placement_deadline WHERE state = 'hold_requested') and `bet_accepted_decided`
 *   (decided_at WHERE state = 'accepted') go. Their queries — the recovery of interrupted placements and the
 *   settlement sweep of recently accepted bets — read a range of `bet_placement_deadline` (set at insert, never
 *   changed) and check the state on the rows it holds.
 * - The recovery's lower bound is `placement_recovery_mark`: every bet whose deadline is before `through` was
 *   found finished (or was force-declined) by a run of the recovery; a run reads from there to now and moves it.
 *   It starts at the oldest bet still placing (read through the old index before it goes) or now, less a minute.
 * - `fillfactor` leaves room on each page for the new row versions of the transitions (HOT needs the same page).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE placement_recovery_mark (
       id int2 PRIMARY KEY CHECK (id = 1),
       through timestamptz NOT NULL
     )`,
    `INSERT INTO placement_recovery_mark (id, through)
       SELECT 1, least(now(), coalesce(min(placement_deadline), now())) - interval '1 minute'
       FROM bet WHERE state = 'hold_requested'`,
    `CREATE INDEX bet_placement_deadline ON bet (placement_deadline)`,
    `DROP INDEX bet_unfinished_placement`,
    `DROP INDEX bet_accepted_decided`,
    `ALTER TABLE bet SET (fillfactor = 55)`,
    `ALTER TABLE bet_selection SET (fillfactor = 80)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bet_selection RESET (fillfactor)',
    'ALTER TABLE bet RESET (fillfactor)',
    `CREATE INDEX bet_accepted_decided ON bet (decided_at) WHERE state = 'accepted'`,
    `CREATE INDEX bet_unfinished_placement ON bet (placement_deadline) WHERE state = 'hold_requested'`,
    'DROP INDEX bet_placement_deadline',
    'DROP TABLE placement_recovery_mark',
  ]);
}
