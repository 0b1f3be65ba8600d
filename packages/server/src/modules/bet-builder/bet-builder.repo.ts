import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** A white label's own builder settings as stored: null columns take the default. */
export interface BuilderSettingsRowDb {
  white_label_id: string;
  margin: string | null;
  max_legs: number | null;
}

const columns = ['white_label_id', sql<string | null>`margin::text`.as('margin'), 'max_legs'] as const;

/** A white label's own builder settings, or undefined. */
export async function builderSettingsOf(
  db: Executor,
  whiteLabelId: string,
): Promise<BuilderSettingsRowDb | undefined> {
  return db
    .selectFrom('bet_builder_settings')
    .select(columns)
    .where('white_label_id', '=', whiteLabelId)
    .executeTakeFirst();
}

/** Every white label's own builder settings, by white label id. */
export async function listBuilderSettings(db: Executor): Promise<BuilderSettingsRowDb[]> {
  return db.selectFrom('bet_builder_settings').select(columns).orderBy('white_label_id').execute();
}

/** Writes a white label's own builder settings; a row with both columns null is removed. */
export async function writeBuilderSettings(tx: Executor, row: BuilderSettingsRowDb): Promise<void> {
  if (row.margin === null && row.max_legs === null) {
    await tx.deleteFrom('bet_builder_settings').where('white_label_id', '=', row.white_label_id).execute();
    return;
  }
  await tx
    .insertInto('bet_builder_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('white_label_id').doUpdateSet({ margin: row.margin, max_legs: row.max_legs }),
    )
    .execute();
}
