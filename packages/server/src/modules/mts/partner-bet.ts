import type { PartnerBet } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { type Bet, findBet, orderView, toPartnerBet } from '../bets/index.js';
import { listOrdersOfBets } from '../cash-out/index.js';
import { loadForeignCashOutOrders } from './mts.repo.js';

/**
 * Bets in the partner shape, each with the foreign cash-out orders its partner reported (MTS bets) and the cash-out
 * orders Bookie decided.
 */
export async function partnerBets(db: Executor, bets: readonly Bet[]): Promise<PartnerBet[]> {
  const orders = await loadForeignCashOutOrders(
    db,
    bets.filter((b) => b.row.source === 'mts').map((b) => b.row.id),
  );
  const platformOrders = await listOrdersOfBets(
    db,
    bets.map((b) => b.row.id),
  );
  return bets.map((b) =>
    toPartnerBet(
      b,
      (orders.get(b.row.id) ?? []).map((o) => ({
        id: o.order_id,
        amount: o.amount,
        refund_amount: o.refund_amount,
        status: { code: o.status, reason: o.reason },
        created_at: o.created_at,
      })),
      (platformOrders.get(b.row.id) ?? []).map(orderView),
    ),
  );
}

/**
 * One bet of a white label in the D29 shape (`GET /bets/{bet_id}`); another white label's bet is not found.
 *
 * @throws DomainError not_found
 */
export async function getPartnerBet(db: Executor, whiteLabelId: string, betId: string): Promise<PartnerBet> {
  const bet = await findBet(db, whiteLabelId, betId);
  if (!bet) throw new DomainError('not_found', `no bet ${betId}`, { field: 'bet_id' });
  return (await partnerBets(db, [bet]))[0] as PartnerBet;
}
