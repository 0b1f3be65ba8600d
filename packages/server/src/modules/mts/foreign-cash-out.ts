import type { ForeignCashOutOrder } from '@bookie/contracts';
import {
  add,
  compare,
  DomainError,
  formatMoney,
  parseDecimal,
  type Rational,
  validationError,
  ZERO,
} from '@bookie/core';
import type { ForeignCashOutRow } from './mts.repo.js';

/** The partner's foreign cash-out orders of a bet merged with a report, and what they add up to. */
export interface MergedOrders {
  /** The orders the report adds or changes, as they will be stored. */
  written: ForeignCashOutRow[];
  /** Σ amount of every accepted order after the report (6 decimals). */
  acceptedAmount: string;
  /** True when the accepted orders, with the platform's own, cash out the whole stake. */
  full: boolean;
  /** True when the report accepts an order that was not accepted before. */
  newlyAccepted: boolean;
}

const money = (v: string, field: string): Rational =>
  parseDecimal(v, { field, maxDecimals: 6, allowNegative: false });

/**
 * Merges reported foreign cash-out orders with the stored ones (the cash-out rules of the partner API): an order is pending
 * (optional), then accepted or declined; a decided order cannot change its state or amounts. `room` is the part of
 * the stake foreign orders may take: the stake less the platform's own accepted cash-outs, so that the sum over
 * every order of the bet, foreign and platform, never passes the stake. Accepted amounts adding up to `room` end the
 * bet (a full cash-out).
 *
 * @throws DomainError validation_error naming `foreign_cash_out_orders[i]…`; conflict (409) when a decided order
 * would change.
 */
export function mergeForeignCashOutOrders(
  room: Rational,
  stored: readonly ForeignCashOutRow[],
  reported: readonly ForeignCashOutOrder[],
): MergedOrders {
  const byId = new Map(stored.map((o) => [o.order_id, o]));
  const written: ForeignCashOutRow[] = [];
  const seen = new Set<string>();
  let newlyAccepted = false;
  reported.forEach((o, i) => {
    const field = `foreign_cash_out_orders[${i}]`;
    if (seen.has(o.id)) throw validationError(`${field}.id`, `${o.id} is repeated`);
    seen.add(o.id);
    const amount = formatMoney(money(o.amount, `${field}.amount`));
    const refund = formatMoney(money(o.refund_amount, `${field}.refund_amount`));
    const before = byId.get(o.id);
    const row: ForeignCashOutRow = {
      order_id: o.id,
      amount,
      refund_amount: refund,
      status: o.status.code,
      reason: o.status.reason ?? null,
      created_at: o.created_at,
    };
    if (before && before.status !== 'pending') {
      const same =
        before.status === row.status &&
        formatMoney(money(before.amount, 'amount')) === amount &&
        formatMoney(money(before.refund_amount, 'refund_amount')) === refund;
      if (!same) {
        throw new DomainError('conflict', `${field}: order ${o.id} is already ${before.status}`, {
          field: `${field}.status.code`,
        });
      }
      return;
    }
    if (row.status === 'accepted') newlyAccepted = true;
    byId.set(o.id, row);
    written.push(row);
  });
  let accepted = ZERO;
  for (const o of byId.values())
    if (o.status === 'accepted') accepted = add(accepted, money(o.amount, 'amount'));
  if (compare(accepted, room) > 0) {
    throw validationError(
      'foreign_cash_out_orders',
      `the accepted amounts add up to ${formatMoney(accepted)}, more than the ${formatMoney(room)} of the stake not cashed out on the platform`,
    );
  }
  return {
    written,
    acceptedAmount: formatMoney(accepted),
    full: compare(accepted, room) === 0,
    newlyAccepted,
  };
}
