import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE consumer_offset (
       name text PRIMARY KEY,
       version int8 NOT NULL,
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE audit_log (
       id bigserial PRIMARY KEY,
       at timestamptz NOT NULL DEFAULT now(),
       actor text NOT NULL,
       action text NOT NULL,
       subject text NOT NULL,
       details jsonb NOT NULL DEFAULT '{}'::jsonb
     )`,
    `CREATE INDEX audit_log_subject ON audit_log (subject, at)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE audit_log', 'DROP TABLE consumer_offset']);
}
