import type { Executor } from '../../db/transaction.js';
import { auditBonus, type InsuranceRow, updateInsurance } from './bonuses.repo.js';

/**
 * The operator's open items of an insurance refund (the insurance refund rule, docs/decisions.md):
 * - `refund_kept_not_earned`: a refund that stands with the player (it could not be taken back: the white label opted
 *   out of `/bet/insurances/cancel`, or answered it 404/405/501) while the bet's latest result no longer earns it;
 * - `refund_not_paid`: the bet's latest result earns a refund that never reached the player (the white label answered
 *   `/bet/insurances/accepted` 404/405/501, or Bookie learnt it has no insurance callbacks).
 */
export type InsuranceOpenItemKind = 'refund_kept_not_earned' | 'refund_not_paid';

/** The open item of an insurance, if it has one. Pure. */
export function openItemOf(
  r: Pick<InsuranceRow, 'refund_state' | 'earned'>,
): InsuranceOpenItemKind | undefined {
  if (r.refund_state === 'kept' && r.earned === false) return 'refund_kept_not_earned';
  if (r.refund_state === 'not_paid' && r.earned === true) return 'refund_not_paid';
  return undefined;
}

/** The columns of an insurance that the refund rule changes. */
export type RefundChange = Partial<
  Pick<InsuranceRow, 'status' | 'refund_state' | 'refund_amount' | 'earned' | 'resolved_at'>
>;

/**
 * Writes a refund change of an insurance and audits (actor `bookie`) what it did to the operator's open items: one
 * opened (`insurance.open_item_opened`), closed (`insurance.open_item_closed`), or a refund kept because it could not
 * be taken back (`insurance.refund_kept`). Call it inside the transaction of the change.
 */
export async function saveRefund(
  tx: Executor,
  before: InsuranceRow,
  change: RefundChange,
  at: Date,
  why: string,
): Promise<InsuranceRow> {
  const after: InsuranceRow = { ...before, ...change, updated_at: at };
  await updateInsurance(tx, before.id, { ...change, updated_at: at });
  const was = openItemOf(before);
  const is = openItemOf(after);
  const entries: Array<{ action: string; details: Record<string, unknown> }> = [];
  if (after.refund_state === 'kept' && before.refund_state !== 'kept') {
    entries.push({ action: 'insurance.refund_kept', details: { refund_amount: after.refund_amount } });
  }
  if (was && was !== is) entries.push({ action: 'insurance.open_item_closed', details: { kind: was } });
  if (is && was !== is) {
    entries.push({
      action: 'insurance.open_item_opened',
      details: { kind: is, amount: after.refund_amount },
    });
  }
  for (const e of entries) {
    await auditBonus(tx, {
      at,
      actor: 'bookie',
      action: e.action,
      subject: `insurance:${before.id}`,
      details: { ...e.details, bet_id: before.bet_id, why },
    });
  }
  return after;
}
