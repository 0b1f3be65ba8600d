import { execStatements } from '@bookie/storage';
import { type Kysely, sql } from 'kysely';

/**
 * A partner cancels an insurance it gave (one not yet applied to a bet) and a bet boost: an insurance cancelled that
 * way has no bet, and a cancelled boost keeps its counts and is taken by no bet any more.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  // the check "available exactly when no bet" is unnamed in the first migration: find it by its definition
  const r = await sql<{ conname: string }>`
    SELECT conname FROM pg_constraint
     WHERE conrelid = 'insurance'::regclass AND contype = 'c'
       AND pg_get_constraintdef(oid) LIKE '%bet_id IS NULL%'`.execute(db);
  await execStatements(db, [
    ...r.rows.map((c) => `ALTER TABLE insurance DROP CONSTRAINT "${c.conname}"`),
    `ALTER TABLE insurance ADD CONSTRAINT insurance_bet_by_status CHECK (
       CASE status WHEN 'available' THEN bet_id IS NULL WHEN 'cancelled' THEN true ELSE bet_id IS NOT NULL END
     )`,
    'ALTER TABLE bet_boost ADD COLUMN cancelled_at timestamptz',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bet_boost DROP COLUMN cancelled_at',
    'ALTER TABLE insurance DROP CONSTRAINT insurance_bet_by_status',
    `ALTER TABLE insurance ADD CHECK ((status = 'available') = (bet_id IS NULL))`,
  ]);
}
