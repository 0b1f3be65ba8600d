import { formatMoney, parseDecimal, sub } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { type Bet, setCashedOut } from '../bets/index.js';
import { remainingStake } from '../settlement/index.js';
import { declineOrder, type OrderRow } from './cash-out.repo.js';
import { rewriteExposure } from './rewrite-exposure.js';

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

/**
 * Takes an accepted order back, inside `tx` (the bet locked): the order becomes declined with `reason`, its part of
 * the stake and of the refund come off the bet's `cashed_out_stake` and `cashed_out_refund`, and the exposure
 * stands again for the stake in play — a cashed-out bet is open again (the state change puts its legs' exposure on
 * the outcomes), an open bet's outcomes move by the difference. Settling the bet again is the caller's.
 * Answers the order as it now stands.
 */
export async function giveBackOrder(
  tx: Executor,
  bet: Bet,
  order: OrderRow,
  reason: 'cancelled_by_partner' | 'partner_unsupported',
  now: Date,
): Promise<OrderRow> {
  await declineOrder(tx, bet.row.id, order.id, reason, now);
  const amount = exact(order.amount, 'amount');
  const cashed = {
    stake: formatMoney(sub(exact(bet.row.cashed_out_stake, 'cashed_out_stake'), amount)),
    refund: formatMoney(
      sub(exact(bet.row.cashed_out_refund, 'cashed_out_refund'), exact(order.refund_amount, 'refund_amount')),
    ),
  };
  // exposure stands for the stake still in play: less every accepted order, the platform's and the partner's
  const after = remainingStake({ ...bet.row, cashed_out_stake: cashed.stake });
  if (bet.row.state === 'cashed_out') {
    // the bet reopens: its legs get the exposure of what comes back, which the state change puts on the outcomes
    await rewriteExposure(tx, bet.row.id, after, false);
    await setCashedOut(tx, bet.row.id, cashed, { from: bet.row.state, to: 'accepted' }, now);
  } else {
    const open = bet.row.state === 'accepted' || bet.row.state === 'unsettled';
    await rewriteExposure(tx, bet.row.id, after, open);
    await setCashedOut(tx, bet.row.id, cashed, undefined, now);
  }
  return { ...order, status: 'declined', reason, decided_at: now };
}
