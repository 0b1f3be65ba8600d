import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // Leadership of the background roles that must run in one process at a time when several server processes
    // share one database (docs/adr/0025-scale-out.md): one row per role. `holder` is the process holding it until
    // `expires_at`; `epoch` grows at every change of holder, and every write of the role checks it (fencing), so a
    // process that lost the lease cannot write any more.
    `CREATE TABLE leader_lease (
       role text PRIMARY KEY,
       holder text,
       epoch int8 NOT NULL DEFAULT 0,
       expires_at timestamptz,
       acquired_at timestamptz
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE leader_lease']);
}
