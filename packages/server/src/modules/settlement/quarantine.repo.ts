import { type Selectable, sql } from 'kysely';
import type { SettlementQuarantineTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

// ------------------------------------------------------------------------------------------- quarantine

/** A quarantined log entry (docs/adr/0016-safety-and-conformance.md). */
export type QuarantineRow = Selectable<SettlementQuarantineTable>;

/** Puts an entry in quarantine (or back in it after a failed retry), counting its attempts. */
export async function quarantineEntry(
  db: Executor,
  row: { consumer: string; v: bigint; line: string; error: string; attempts: number; at: Date },
): Promise<void> {
  await db
    .insertInto('settlement_quarantine')
    .values({
      consumer: row.consumer,
      v: row.v,
      line: row.line,
      error: row.error,
      attempts: row.attempts,
      status: 'quarantined',
      quarantined_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.columns(['consumer', 'v']).doUpdateSet((eb) => ({
        error: row.error,
        attempts: sql<number>`${eb.ref('settlement_quarantine.attempts')} + ${row.attempts}`,
        status: 'quarantined',
        updated_at: row.at,
      })),
    )
    .execute();
}

/** The quarantine of a consumer, oldest entry first; `status` filters. */
export async function listQuarantine(
  db: Executor,
  consumer: string,
  status?: QuarantineRow['status'],
): Promise<QuarantineRow[]> {
  let q = db.selectFrom('settlement_quarantine').selectAll().where('consumer', '=', consumer);
  if (status) q = q.where('status', '=', status);
  return q.orderBy('v').limit(1000).execute();
}

/** Entries waiting in quarantine (`quarantined` or `retry`). */
export async function countQuarantined(db: Executor, consumer: string): Promise<number> {
  const r = await db
    .selectFrom('settlement_quarantine')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('consumer', '=', consumer)
    .where('status', 'in', ['quarantined', 'retry'])
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** One quarantined entry, locked for an operator decision. */
export async function quarantinedForUpdate(
  db: Executor,
  consumer: string,
  v: bigint,
): Promise<QuarantineRow | undefined> {
  return db
    .selectFrom('settlement_quarantine')
    .selectAll()
    .where('consumer', '=', consumer)
    .where('v', '=', v)
    .forUpdate()
    .executeTakeFirst();
}

/** Sets an entry's status. */
export async function setQuarantineStatus(
  db: Executor,
  consumer: string,
  v: bigint,
  status: QuarantineRow['status'],
  at: Date,
): Promise<void> {
  await db
    .updateTable('settlement_quarantine')
    .set({ status, updated_at: at })
    .where('consumer', '=', consumer)
    .where('v', '=', v)
    .execute();
}
