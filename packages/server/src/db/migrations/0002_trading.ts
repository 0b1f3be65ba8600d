import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * The trading store and the feed log (spec 02, DECISIONS D21–D22, docs/adr/0004-trading-feed.md):
 * - `feed_version_seq`: versions, drawn by the one writer under a transaction-level advisory lock, so they ascend
 *   in commit order;
 * - `feed_log`: one row per log entry, with its serialised JSON line stored once (`/log` streams it as is);
 * - `sport_event`: the current snapshot of each event (serialised JSON line) and its version;
 * - `feed_state`: the retention floor, the highest version removed by retention (`/log` answers 409 below it).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE SEQUENCE feed_version_seq AS int8 START WITH 1 INCREMENT BY 1`,
    `CREATE TABLE feed_log (
       v int8 PRIMARY KEY,
       sport_event_id text NOT NULL,
       type text NOT NULL CHECK (type IN ('match_new', 'match_update', 'bet_rollback')),
       created_at timestamptz NOT NULL DEFAULT now(),
       line text NOT NULL
     )`,
    `CREATE INDEX feed_log_event ON feed_log (sport_event_id, v)`,
    `CREATE TABLE sport_event (
       id text PRIMARY KEY,
       version int8 NOT NULL,
       fixture_status int4 NOT NULL,
       snapshot text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       finished_at timestamptz
     )`,
    `CREATE INDEX sport_event_finished ON sport_event (finished_at) WHERE finished_at IS NOT NULL`,
    `CREATE TABLE feed_state (
       id int4 PRIMARY KEY CHECK (id = 1),
       retention_floor int8 NOT NULL DEFAULT 0,
       retention_ran_at timestamptz
     )`,
    `INSERT INTO feed_state (id) VALUES (1)`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'DROP TABLE feed_state',
    'DROP TABLE sport_event',
    'DROP TABLE feed_log',
    'DROP SEQUENCE feed_version_seq',
  ]);
}
