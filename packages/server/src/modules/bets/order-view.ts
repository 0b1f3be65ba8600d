import type { CashOutOrder, CashOutReason } from '@bookie/contracts';
import { formatMoney, parseDecimal } from '@bookie/core';

/** A cash-out order the platform decided, as stored (the partner's foreign orders are the MTS module's). */
export interface OrderRow {
  bet_id: string;
  id: string;
  source: 'platform';
  amount: string;
  refund_amount: string;
  status: 'pending' | 'accepted' | 'declined';
  reason: string;
  quote_id: string | null;
  created_at: Date;
  decided_at: Date | null;
}

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
