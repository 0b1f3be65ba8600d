import type { Executor } from '../../db/transaction.js';
import { findBet, toBetView } from '../bets/index.js';
import type { CallbackDelivery } from '../callbacks/index.js';
import { insertAudit, prefetchLimits, refreshBetsIn, type SettlementDeps } from '../settlement/index.js';
import { getWhiteLabel } from '../tenants/index.js';
import { findOrder, listOrdersOfBets } from './cash-out.repo.js';
import { giveBackOrder } from './give-back-order.js';

/**
 * A platform cash-out whose payment cannot be delivered is reversed (the cash-out rule for white labels whose
 * cash-out callbacks are not supported). Runs in the transaction that records the `/bet/cash-out-orders/accepted`
 * delivery as unsupported: the order becomes declined (`partner_unsupported`), its part of the stake and refund come
 * off the bet (`cashed_out_stake`, `cashed_out_refund`), the exposure stands for the whole stake in play again (a
 * cashed-out bet is open again), the reversal is audited (actor `bookie`, `cash_out.reversed`), and the bet is
 * settled again as its results require — a bet settled meanwhile on the smaller stake is unsettled and settled on
 * the restored one. No `/bet/cash-out-orders/declined` follows: it belongs to the same capability, which has just
 * proved unsupported. An order no longer accepted (the partner cancelled it meanwhile) is left alone.
 *
 * Answers what to do once the transaction committed (wake the dispatcher, tell the odds shading and the player's
 * live stream), or nothing when nothing changed.
 */
export async function reverseUnpayableCashOut(
  deps: SettlementDeps,
  tx: Executor,
  delivery: Pick<CallbackDelivery, 'white_label_id' | 'bet_id' | 'body'>,
): Promise<(() => void) | undefined> {
  const orderId = orderIdOf(delivery.body);
  if (!orderId) return undefined;
  const bet = await findBet(tx, delivery.white_label_id, delivery.bet_id, true);
  if (!bet) return undefined;
  const order = await findOrder(tx, bet.row.id, orderId);
  if (!order || order.status !== 'accepted') return undefined;
  const now = new Date(deps.clock.now());
  const reversed = await giveBackOrder(tx, bet, order, 'partner_unsupported', now);
  await insertAudit(tx, {
    at: now,
    actor: 'bookie',
    action: 'cash_out.reversed',
    subject: `bet:${bet.row.id}`,
    details: JSON.stringify({
      cash_out_order_id: order.id,
      amount: order.amount,
      refund_amount: order.refund_amount,
      reason: reversed.reason,
      before: { state: bet.row.state, cashed_out_stake: bet.row.cashed_out_stake },
    }),
  });
  // the caps of a settlement, read in this transaction (on PGlite it holds the only connection)
  const limits = await prefetchLimits(
    { ...deps, whiteLabels: { get: (id) => getWhiteLabel(deps, id, tx) } },
    [{ whiteLabelId: bet.row.white_label_id, currency: bet.row.currency }],
  );
  const applied = await refreshBetsIn(tx, deps, [bet.row.id], { cause: 'cash_out_reversed' }, limits);
  const after = applied.bets[0] ?? bet;
  const orders = (await listOrdersOfBets(tx, [bet.row.id])).get(bet.row.id) ?? [];
  const view = toBetView(after, orders);
  return () => {
    deps.kick();
    deps.exposureChanged?.(after.selections);
    deps.betEvents.emit({ whiteLabelId: after.row.white_label_id, playerId: after.row.player_id, bet: view });
  };
}

/** The order id an accepted callback's body names, or undefined for a body that names none. */
function orderIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { cash_out_order_id?: unknown }).cash_out_order_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}
