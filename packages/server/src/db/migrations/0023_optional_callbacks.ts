import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Optional callbacks as capabilities of a white label (docs/adr/0029-optional-callbacks.md): per capability what the
 * partner announced and what Bookie learnt from its answers, `{"cash_out": {"announced": true, "learnt": "unsupported",
 * "learnt_at": "…", "last_status": 404}, …}`. Insurance cancel becomes the default (a white label opts out with
 * `insurance_cancel_callbacks = false`): without it a refund taken back by a corrected result would be paid twice.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE white_label ADD COLUMN optional_callbacks jsonb NOT NULL DEFAULT '{}'::jsonb`,
    'ALTER TABLE white_label ALTER COLUMN insurance_cancel_callbacks SET DEFAULT true',
    'UPDATE white_label SET insurance_cancel_callbacks = true',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE white_label ALTER COLUMN insurance_cancel_callbacks SET DEFAULT false',
    'ALTER TABLE white_label DROP COLUMN optional_callbacks',
  ]);
}
