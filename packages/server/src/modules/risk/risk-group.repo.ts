import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { RiskGroupTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A risk group row. */
export type GroupRow = Selectable<RiskGroupTable>;

/** Every risk group. */
export function readGroups(db: Executor): Promise<GroupRow[]> {
  return db.selectFrom('risk_group').selectAll().orderBy('name').execute();
}

/** Creates or changes a risk group. */
export async function writeGroup(
  tx: Executor,
  row: { name: string; stakeFactor: string; maxPayoutEur: string | null },
): Promise<void> {
  await tx
    .insertInto('risk_group')
    .values({ name: row.name, stake_factor: row.stakeFactor, max_payout_eur: row.maxPayoutEur })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        stake_factor: row.stakeFactor,
        max_payout_eur: row.maxPayoutEur,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}
