import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    // The betting frame (DECISIONS D47–D49, docs/adr/0020-betting-frame.md). `allowed_origins`: the web origins
    // (`https://casino.example`) whose pages may call the frame API from a browser (CORS); empty = none.
    `ALTER TABLE white_label ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}'`,
    // Frame session activity for heartbeats (D47): `last_seen_at` is when the frame last called the frame API
    // (written at most once per half interval), `heartbeat_at` when a heartbeat was last claimed for the session,
    // so that one process sends it once per interval however many processes run.
    `ALTER TABLE session_token ADD COLUMN last_seen_at timestamptz`,
    `ALTER TABLE session_token ADD COLUMN heartbeat_at timestamptz`,
    `CREATE INDEX session_token_active ON session_token (last_seen_at) WHERE ended_at IS NULL AND last_seen_at IS NOT NULL`,
  ]);
}
