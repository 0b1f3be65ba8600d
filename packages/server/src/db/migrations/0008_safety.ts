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
    // DECISIONS D45: an optional callback the partner answered 404/405/501 leaves the bet's queue as `unsupported`
    `ALTER TABLE callback_delivery DROP CONSTRAINT callback_delivery_status_check`,
    `ALTER TABLE callback_delivery ADD CONSTRAINT callback_delivery_status_check
       CHECK (status IN ('pending', 'delivered', 'failed', 'unsupported'))`,
    // insurance cancel (/bet/insurances/cancel) is not in spec 01's table: sent only to white labels that turn it on
    `ALTER TABLE white_label ADD COLUMN insurance_cancel_callbacks boolean NOT NULL DEFAULT false`,
    // Client certificates bound to a white label (spec 02: the feed client holds a certificate and its key): the
    // SHA-256 fingerprint of the DER certificate, lowercase hex; revocable like credentials.
    `CREATE TABLE white_label_certificate (
       id uuid PRIMARY KEY,
       white_label_id text NOT NULL REFERENCES white_label (id),
       fingerprint text NOT NULL UNIQUE CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
       subject text NOT NULL,
       created_at timestamptz NOT NULL,
       revoked_at timestamptz
     )`,
    `CREATE INDEX white_label_certificate_wl ON white_label_certificate (white_label_id)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE white_label_certificate',
    'ALTER TABLE white_label DROP COLUMN insurance_cancel_callbacks',
    `DELETE FROM callback_delivery WHERE status = 'unsupported'`,
    'ALTER TABLE callback_delivery DROP CONSTRAINT callback_delivery_status_check',
    `ALTER TABLE callback_delivery ADD CONSTRAINT callback_delivery_status_check
       CHECK (status IN ('pending', 'delivered', 'failed'))`,
    'DROP TABLE settlement_quarantine',
  ]);
}
