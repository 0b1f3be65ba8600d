import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * Bet builders of a bet (docs/adr/0043-bet-builder-bets.md): a bet's selections are plain odds (`bet_selection` rows
 * with `builder` null) or builders. A builder is one `bet_builder` row (its sport event, the combined odds asked for
 * and accepted, the model's probabilities, its result) and its inner legs, `bet_selection` rows whose `builder` is the
 * builder's index. Inner legs are resulted like any selection (the settlement index finds them by outcome); the
 * builder's own result columns are filled from them by settlement.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    'ALTER TABLE bet_selection ADD COLUMN builder int2',
    `CREATE TABLE bet_builder (
       bet_id uuid NOT NULL REFERENCES bet (id),
       builder int2 NOT NULL,
       sport_event_id text NOT NULL,
       requested_odds numeric(40, 12) NOT NULL,
       odds numeric(40, 12) NOT NULL,
       probability numeric(40, 12) NOT NULL,
       refund_probability numeric(40, 12) NOT NULL DEFAULT 0,
       margin numeric(40, 12) NOT NULL,
       status int2 NOT NULL DEFAULT 0,
       dead_heat numeric(40, 12),
       status_reason text NOT NULL DEFAULT '',
       result_source text NOT NULL DEFAULT 'feed' CHECK (result_source IN ('feed', 'rollback', 'manual')),
       PRIMARY KEY (bet_id, builder)
     )`,
    'CREATE INDEX bet_builder_event ON bet_builder (sport_event_id, bet_id)',
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['DROP TABLE bet_builder', 'ALTER TABLE bet_selection DROP COLUMN builder']);
}
