import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The synchronous `/bet/place` written once, with its outcome (docs/adr/0048-callback-outbox-row-versions.md): the
 * outbox row is no longer inserted at the hold and updated with the outcome, but inserted when the outcome is known.
 * The bet carries the request_id its `/bet/place` is sent with, so the recovery of an interrupted placement writes
 * that row itself (failed, with the bytes the partner may have seen). Null for bets placed before, and for bets the
 * partner reports (no `/bet/place`).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bet ADD COLUMN place_request_id uuid']);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bet DROP COLUMN place_request_id']);
}
