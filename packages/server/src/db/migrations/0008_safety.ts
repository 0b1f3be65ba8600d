import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // Log entries the settlement consumer gave up on after repeated failures (docs/adr/0016): the consumer goes on
    // past them; an operator retries (the leader processes it again) or skips it. `line` is the entry as logged,
    // so a retry works after log retention removed it.
    `CREATE TABLE settlement_quarantine (
       consumer text NOT NULL,
       v bigint NOT NULL,
       line text NOT NULL,
       error text NOT NULL,
       attempts int4 NOT NULL,
       status text NOT NULL CHECK (status IN ('quarantined', 'retry', 'resolved', 'skipped')),
       quarantined_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (consumer, v)
     )`,
    `CREATE INDEX settlement_quarantine_status ON settlement_quarantine (consumer, status, v)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE settlement_quarantine']);
}
