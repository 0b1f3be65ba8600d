import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * An insurance refund is paid at most once (docs/decisions.md, "Insurance refunds"): per insurance, where its refund
 * stands (`refund_state`: paid — an accepted stands and can be taken back; cancel_requested — a cancel takes it back;
 * kept — it stands and cannot be taken back; not_paid — the partner refused the accepted) and whether the bet's latest
 * result earns it (`earned`, null while the bet is unsettled). The operator's open items are derived from the two.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE insurance ADD COLUMN refund_state text
       CHECK (refund_state IN ('paid', 'cancel_requested', 'kept', 'not_paid'))`,
    'ALTER TABLE insurance ADD COLUMN earned boolean',
    `UPDATE insurance SET refund_state = 'paid', earned = true WHERE status = 'paid'`,
    `UPDATE insurance SET earned = false WHERE status = 'declined'`,
    `CREATE INDEX insurance_open_items ON insurance (white_label_id)
       WHERE refund_state IN ('kept', 'not_paid')`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP INDEX insurance_open_items',
    'ALTER TABLE insurance DROP COLUMN earned',
    'ALTER TABLE insurance DROP COLUMN refund_state',
  ]);
}
