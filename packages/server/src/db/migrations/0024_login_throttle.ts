import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Failed backoffice logins counted per email and source address (docs/adr/0030-hostile-input.md), replacing the
 * per-user count: failures from one address lock only that address out of that email, for a delay that doubles with
 * each further failure, so nobody can keep another user locked out from elsewhere. Keyed by the normalised email,
 * known or not, so an unknown email is throttled exactly like a known one.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE login_throttle (
       email text NOT NULL,
       source text NOT NULL,
       failures integer NOT NULL CHECK (failures > 0),
       locked_until timestamptz,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (email, source)
     )`,
    `CREATE INDEX login_throttle_updated ON login_throttle (updated_at)`,
    'ALTER TABLE backoffice_user DROP COLUMN failed_logins',
    'ALTER TABLE backoffice_user DROP COLUMN locked_until',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE backoffice_user ADD COLUMN failed_logins integer NOT NULL DEFAULT 0',
    'ALTER TABLE backoffice_user ADD COLUMN locked_until timestamptz',
    'DROP TABLE login_throttle',
  ]);
}
