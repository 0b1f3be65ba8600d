import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { RiskDelayTable, RiskLimitTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A limit row. */
export type LimitRow = Selectable<RiskLimitTable>;

/** A bet delay row. */
export type DelayRow = Selectable<RiskDelayTable>;

/** The white label's liability limits (D38). */
export function readLimits(db: Executor, whiteLabelId?: string): Promise<LimitRow[]> {
  let q = db.selectFrom('risk_limit').selectAll();
  if (whiteLabelId) q = q.where('white_label_id', '=', whiteLabelId);
  return q.orderBy('white_label_id').orderBy('market_type_id').orderBy('phase').execute();
}

/** Sets (or with null removes) one liability limit. */
export async function writeLimit(
  tx: Executor,
  row: {
    whiteLabelId: string;
    marketTypeId: string;
    phase: 'live' | 'prematch';
    liabilityEur: string | null;
  },
): Promise<void> {
  if (row.liabilityEur === null) {
    await tx
      .deleteFrom('risk_limit')
      .where('white_label_id', '=', row.whiteLabelId)
      .where('market_type_id', '=', row.marketTypeId)
      .where('phase', '=', row.phase)
      .execute();
    return;
  }
  await tx
    .insertInto('risk_limit')
    .values({
      white_label_id: row.whiteLabelId,
      market_type_id: row.marketTypeId,
      phase: row.phase,
      liability_eur: row.liabilityEur,
    })
    .onConflict((oc) =>
      oc
        .columns(['white_label_id', 'market_type_id', 'phase'])
        .doUpdateSet({ liability_eur: row.liabilityEur as string, updated_at: sql`now()` }),
    )
    .execute();
}

/** Every bet delay level (D34). */
export function readDelays(db: Executor): Promise<DelayRow[]> {
  return db.selectFrom('risk_delay').selectAll().orderBy('level').orderBy('key').orderBy('phase').execute();
}

/** Sets (or with null removes) one bet delay level. */
export async function writeDelay(
  tx: Executor,
  row: { level: DelayRow['level']; key: string; phase: 'live' | 'prematch'; seconds: string | null },
): Promise<void> {
  if (row.seconds === null) {
    await tx
      .deleteFrom('risk_delay')
      .where('level', '=', row.level)
      .where('key', '=', row.key)
      .where('phase', '=', row.phase)
      .execute();
    return;
  }
  await tx
    .insertInto('risk_delay')
    .values({ level: row.level, key: row.key, phase: row.phase, seconds: row.seconds })
    .onConflict((oc) =>
      oc
        .columns(['level', 'key', 'phase'])
        .doUpdateSet({ seconds: row.seconds as string, updated_at: sql`now()` }),
    )
    .execute();
}

/** Writes a risk settings change to the audit log. */
export async function auditRisk(
  tx: Executor,
  row: { actor: string; action: string; subject: string; details: Record<string, unknown> },
): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({
      actor: row.actor,
      action: row.action,
      subject: row.subject,
      details: JSON.stringify(row.details),
    })
    .execute();
}
