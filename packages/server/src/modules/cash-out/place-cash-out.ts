import { CALLBACK_PATHS, type CashOutOrderAnswer, type CashOutReason } from '@bookie/contracts';
import { add, compare, DomainError, formatMoney, parseDecimal, parseMoney, sub } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { findBet, orderView, setCashedOut } from '../bets/index.js';
import { enqueueCallbacks } from '../callbacks/index.js';
import { offerFor, pricingOf } from './bet-value.js';
import { findOrder, insertOrder, type OrderRow } from './cash-out.repo.js';
import type { CashOutDeps } from './deps.js';
import { foundFor } from './frame-owner.js';
import { paysThroughCallbacks } from './pays-through-callbacks.js';
import { readQuote } from './quotes.js';
import { rewriteExposure } from './rewrite-exposure.js';

/** Input of {@link placeCashOut}. */
export interface PlaceCashOutInput {
  whiteLabelId: string;
  betId: string;
  /** The order id (the partner's; the platform's for a player's order in the frame). */
  id: string;
  amount: string;
  refundAmount: string;
  quoteId?: string | undefined;
  /** When set, only this player's bet is found (the frame). */
  playerId?: string | undefined;
}

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

/**
 * Places a cash-out order on a bet (spec 03 "Cash out"). The order is accepted at exactly `refund_amount` when the
 * quote it names still holds for these amounts, or when the offer on the current prices is at least
 * `refund_amount`; otherwise it is declined with a reason (`bet_not_open`, `amount_too_large`, `leg_resulted`,
 * `market_suspended`, `quote_expired`, `price_moved`), first of all `foreign_selections` (a bet with a selection the
 * platform does not cover), `cash_out_unavailable` (a frame bet of a white label whose cash-out callbacks are not
 * supported: the payment could not reach the player) and `bet_builder` (a bet carrying a bet builder, D65). An accepted order lowers the stake in play: the exposure
 * shrinks in proportion, a full cash-out ends the bet (cashed out), and a frame bet's partner is paid through
 * `/bet/cash-out-orders/accepted` — all in one transaction. Placing the same order id again answers the stored order.
 *
 * @throws DomainError not_found (no such bet), validation_error (`amount`, `refund_amount`).
 */
export async function placeCashOut(
  deps: CashOutDeps,
  input: PlaceCashOutInput,
): Promise<{ created: boolean } & CashOutOrderAnswer> {
  const amount = parseMoney(input.amount, 'amount', { allowZero: false });
  const refund = parseMoney(input.refundAmount, 'refund_amount');
  // read before the transaction: they read outside it
  const pricing = await pricingOf(deps, input.whiteLabelId);
  const key = input.quoteId ? await deps.quoteKey() : undefined;
  const out = await inTransaction(deps.database.db, async (tx) => {
    const bet = await findBet(tx, input.whiteLabelId, input.betId, true);
    if (!bet || !foundFor(bet.row, input.playerId)) {
      throw new DomainError('not_found', `no bet "${input.betId}"`, { bet_id: input.betId });
    }
    const known = await findOrder(tx, bet.row.id, input.id);
    if (known) return { created: false, order: known, callbacks: 0 };
    const now = new Date(deps.clock.now());
    const signed = input.quoteId && key ? readQuote(key, input.quoteId) : undefined;
    const quote = signed && signed.betId === bet.row.id ? signed : undefined;
    const offer = offerFor(deps, bet, amount, pricing);
    let decline: CashOutReason | undefined;
    if (!offer.available) {
      decline =
        offer.reason === 'leg_lost' || offer.reason === 'no_open_legs'
          ? 'leg_resulted'
          : offer.reason === 'bet_not_open' ||
              offer.reason === 'amount_too_large' ||
              offer.reason === 'market_suspended' ||
              offer.reason === 'foreign_selections' ||
              offer.reason === 'bet_builder' ||
              offer.reason === 'cash_out_unavailable'
            ? offer.reason
            : 'price_moved';
    } else {
      const quoteHolds =
        quote !== undefined &&
        quote.expiresAt > now.getTime() &&
        compare(exact(quote.amount, 'amount'), amount) === 0 &&
        compare(exact(quote.refundAmount, 'refund_amount'), refund) === 0;
      if (!quoteHolds && compare(offer.refund, refund) < 0) {
        decline =
          input.quoteId && quote && quote.expiresAt <= now.getTime() ? 'quote_expired' : 'price_moved';
      }
    }
    const order: OrderRow = {
      bet_id: bet.row.id,
      id: input.id,
      source: 'platform',
      amount: formatMoney(amount),
      refund_amount: formatMoney(refund),
      status: decline ? 'declined' : 'accepted',
      reason: decline ?? '',
      quote_id: quote ? (input.quoteId ?? null) : null,
      created_at: now,
      decided_at: now,
    };
    await insertOrder(tx, order);
    if (decline) return { created: true, order, callbacks: 0 };
    const remainingAfter = sub(offer.remaining, amount);
    const cashed = {
      stake: formatMoney(add(exact(bet.row.cashed_out_stake, 'cashed_out_stake'), amount)),
      refund: formatMoney(add(exact(bet.row.cashed_out_refund, 'cashed_out_refund'), refund)),
    };
    if (remainingAfter.num === 0n) {
      // the bet ends cashed out: the exposure trigger takes its whole exposure off
      await setCashedOut(tx, bet.row.id, cashed, { from: bet.row.state, to: 'cashed_out' }, now);
    } else {
      // exposure stands for the stake still in play: less every accepted order, the platform's and the partner's
      await rewriteExposure(tx, bet.row.id, remainingAfter, true);
      await setCashedOut(tx, bet.row.id, cashed, undefined, now);
    }
    let callbacks = 0;
    if (paysThroughCallbacks(bet.row)) {
      await enqueueCallbacks(tx, [
        {
          whiteLabelId: bet.row.white_label_id,
          betId: bet.row.id,
          path: CALLBACK_PATHS.cashOutAccepted,
          body: {
            bet_id: bet.row.id,
            cash_out_order_id: order.id,
            amount: order.amount,
            refund_amount: order.refund_amount,
          },
          foreignParams: bet.row.foreign_params,
        },
      ]);
      callbacks = 1;
    }
    return { created: true, order, callbacks };
  });
  if (out.callbacks > 0) deps.kick();
  return { created: out.created, order: orderView(out.order) };
}
