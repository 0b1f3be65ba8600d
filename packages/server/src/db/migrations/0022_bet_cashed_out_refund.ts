import { execStatements } from '@bookie/storage';
import type { Kysely } from 'kysely';

/**
 * What the player received for a bet's accepted cash-out orders (docs/adr/0028-frame-cash-out.md): Σ refund_amount,
 * kept on the bet beside `cashed_out_stake` and written in the same statement, so a bet's history shows the amount
 * without reading its orders. Bets with accepted orders get theirs from the orders.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function up(db: Kysely<any>): Promise<void> {
  await execStatements(db, [
    `ALTER TABLE bet ADD COLUMN cashed_out_refund numeric(30, 6) NOT NULL DEFAULT 0
       CHECK (cashed_out_refund >= 0)`,
    `UPDATE bet SET cashed_out_refund = o.refund
       FROM (SELECT bet_id, sum(refund_amount) AS refund FROM cash_out_order
              WHERE status = 'accepted' AND source = 'platform' GROUP BY bet_id) o
      WHERE bet.id = o.bet_id`,
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function down(db: Kysely<any>): Promise<void> {
  await execStatements(db, ['ALTER TABLE bet DROP COLUMN cashed_out_refund']);
}
