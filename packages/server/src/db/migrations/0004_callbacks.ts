import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // The transactional outbox of partner callbacks (ARCHITECTURE "Money moves only through the outbox",
    // DECISIONS D7–D10). A row is written in the same transaction as the bet change that causes it.
    `CREATE TABLE callback_delivery (
       id bigserial PRIMARY KEY,
       request_id uuid NOT NULL UNIQUE,
       white_label_id text NOT NULL,
       bet_id text NOT NULL,
       path text NOT NULL,
       body text NOT NULL,
       foreign_params text NOT NULL DEFAULT '{}',
       mode text NOT NULL DEFAULT 'async' CHECK (mode IN ('async', 'sync')),
       status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
       attempts int4 NOT NULL DEFAULT 0,
       next_attempt_at timestamptz NOT NULL DEFAULT now(),
       lease_owner text,
       lease_until timestamptz,
       last_status int4,
       last_error text,
       last_attempt_at timestamptz,
       delivered_at timestamptz,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    // the dispatcher's work queue: pending async rows by due time
    `CREATE INDEX callback_delivery_due ON callback_delivery (next_attempt_at) WHERE status = 'pending' AND mode = 'async'`,
    // per-bet ordering: the head of each bet's pending queue
    `CREATE INDEX callback_delivery_bet_pending ON callback_delivery (bet_id, id) WHERE status = 'pending'`,
    `CREATE INDEX callback_delivery_wl ON callback_delivery (white_label_id, id)`,
    `CREATE INDEX callback_delivery_bet ON callback_delivery (bet_id, id)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE callback_delivery']);
}
