import type { CashOutOrder, CashOutReason } from '@bookie/contracts';
import { formatMoney, parseDecimal } from '@bookie/core';
import type { CashOutOrderTable, Selectable } from '../../db/schema.js';

/** A cash-out order the platform decided, as stored (the partner's foreign orders are the MTS module's). */
export type OrderRow = Selectable<CashOutOrderTable>;

const money = (v: string) => formatMoney(parseDecimal(v, { field: 'amount', maxDecimals: 12 }));

/** An order as the partner and the player see it. */
export function orderView(o: OrderRow): CashOutOrder {
  return {
    id: o.id,
    amount: money(o.amount),
    refund_amount: money(o.refund_amount),
    status: { code: o.status, ...(o.reason ? { reason: o.reason as CashOutReason } : {}) },
    created_at: new Date(o.created_at).toISOString(),
  };
}
