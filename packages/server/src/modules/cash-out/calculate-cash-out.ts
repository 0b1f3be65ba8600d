import type { CashOutQuote } from '@bookie/contracts';
import { DomainError, formatMoney, parseMoney } from '@bookie/core';
import { offerFor, pricingOf } from './bet-value.js';
import { loadBetToValue } from './cash-out.repo.js';
import type { CashOutDeps } from './deps.js';
import { foundFor } from './frame-owner.js';
import { signQuote } from './quotes.js';

/** Input of {@link calculateCashOut}. */
export interface CalculateCashOutInput {
  whiteLabelId: string;
  betId: string;
  /** Part of the remaining stake to cash out (decimal string); all of it when absent. */
  amount?: string | undefined;
  /** When set, only this player's bet is found (the frame). */
  playerId?: string | undefined;
}

/**
 * Quotes a cash-out of a bet (spec 03 "Cash out"): what the player receives now for `amount` of the remaining stake.
 * An offer comes with a signed quote id that holds for its time to live; an answer offering nothing carries the reason.
 *
 * @throws DomainError not_found (no such bet of this white label or player), validation_error (`amount`).
 */
export async function calculateCashOut(
  deps: CashOutDeps,
  input: CalculateCashOutInput,
): Promise<CashOutQuote> {
  const amount =
    input.amount === undefined ? undefined : parseMoney(input.amount, 'amount', { allowZero: false });
  const bet = await loadBetToValue(deps.database.db, input.whiteLabelId, input.betId);
  if (!bet || !foundFor(bet.row, input.playerId)) {
    throw new DomainError('not_found', `no bet "${input.betId}"`, { bet_id: input.betId });
  }
  const offer = offerFor(deps, bet, amount, await pricingOf(deps, bet.row.white_label_id));
  const answer: CashOutQuote = {
    available: offer.available,
    ...(offer.reason ? { reason: offer.reason } : {}),
    amount: formatMoney(offer.amount),
    refund_amount: formatMoney(offer.refund),
    remaining_stake: formatMoney(offer.remaining),
  };
  if (!offer.available) return answer;
  const expiresAt = deps.clock.now() + deps.quoteTtlMs;
  const quoteId = signQuote(await deps.quoteKey(), {
    betId: bet.row.id,
    amount: answer.amount,
    refundAmount: answer.refund_amount,
    expiresAt,
  });
  return { ...answer, quote_id: quoteId, expires_at: new Date(expiresAt).toISOString() };
}
