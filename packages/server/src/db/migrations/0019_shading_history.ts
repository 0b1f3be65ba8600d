import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * What odds shading has done, kept after the odds are back at their base (docs/adr/0018-risk-engine.md): per outcome,
 * how many times the shader published lowered odds, the lowest it published and the base odds it lowered from. The
 * operator reads it (`GET /admin/risk/shading`) and the replay's report counts it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `CREATE TABLE risk_shading_history (
       sport_event_id text NOT NULL,
       market_id text NOT NULL,
       odd_id text NOT NULL,
       market_type_id text NOT NULL,
       base_odds numeric(40, 12) NOT NULL,
       lowest_odds numeric(40, 12) NOT NULL,
       publications integer NOT NULL CHECK (publications > 0),
       last_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (sport_event_id, market_id, odd_id)
     )`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE risk_shading_history']);
}
