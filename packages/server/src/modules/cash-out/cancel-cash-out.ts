import { CALLBACK_PATHS, type CashOutOrderAnswer } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { findBet, orderView } from '../bets/index.js';
import { enqueueCallbacks } from '../callbacks/index.js';
import { refreshBets } from '../settlement/index.js';
import { findOrder, type OrderRow } from './cash-out.repo.js';
import type { CashOutDeps } from './deps.js';
import { giveBackOrder } from './give-back-order.js';
import { paysThroughCallbacks } from './pays-through-callbacks.js';

/**
 * The partner declines an order it had accepted (spec 03 `PATCH …/cash-out-orders/{id}/cancel`): the order becomes
 * declined (`cancelled_by_partner`), its part of the stake comes back to the bet — a cashed-out bet is open again,
 * its exposure back — and a frame bet's partner gets `/bet/cash-out-orders/declined`. Then the bet is settled
 * again as its results require (a bet settled on the smaller stake is unsettled and settled on the larger one),
 * all in one transaction.
 *
 * @throws DomainError not_found (no such bet or order), conflict (the order is not accepted).
 */
export async function cancelCashOut(
  deps: CashOutDeps,
  input: { whiteLabelId: string; betId: string; orderId: string },
): Promise<CashOutOrderAnswer> {
  let result: OrderRow | undefined;
  // an unknown bet is not found before settlement looks at it
  const found = await findBet(deps.database.db, input.whiteLabelId, input.betId, false);
  if (!found) throw new DomainError('not_found', `no bet "${input.betId}"`, { bet_id: input.betId });
  await refreshBets(deps.settlement, [found.row.id], {
    cause: 'cash_out_cancelled',
    fence: async (tx) => {
      const bet = await findBet(tx, input.whiteLabelId, input.betId, true);
      if (!bet) throw new DomainError('not_found', `no bet "${input.betId}"`, { bet_id: input.betId });
      const order = await findOrder(tx, bet.row.id, input.orderId);
      if (!order) {
        throw new DomainError('not_found', `no cash-out order "${input.orderId}"`, {
          cash_out_order_id: input.orderId,
        });
      }
      if (order.status !== 'accepted') {
        throw new DomainError('conflict', `cash-out order "${order.id}" is ${order.status}, not accepted`, {
          status: order.status,
        });
      }
      const now = new Date(deps.clock.now());
      result = await giveBackOrder(tx, bet, order, 'cancelled_by_partner', now);
      if (paysThroughCallbacks(bet.row)) {
        await enqueueCallbacks(tx, [
          {
            whiteLabelId: bet.row.white_label_id,
            betId: bet.row.id,
            path: CALLBACK_PATHS.cashOutDeclined,
            body: { bet_id: bet.row.id, cash_out_order_ids: [order.id] },
            foreignParams: bet.row.foreign_params,
          },
        ]);
      }
    },
  });
  deps.kick();
  return { order: orderView(result!) };
}
