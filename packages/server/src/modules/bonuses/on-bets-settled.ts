import { CALLBACK_PATHS } from '@bookie/contracts';
import { formatMoney, type OddStatus, parseDecimal, type SettleType, settleInsurance } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { Bet } from '../bets/index.js';
import { money6 } from '../bets/index.js';
import { type CallbackToEnqueue, enqueueCallbacks } from '../callbacks/index.js';
import { findWhiteLabel, supportsCallback, toWhiteLabel, type WhiteLabel } from '../tenants/index.js';
import { insuranceOfBet, useFreebet } from './bonuses.repo.js';
import { saveRefund } from './insurance-refund.js';
import { ruleOf } from './insurance-rule.js';

/**
 * What settlement did to one bet in a batch: `unsettled` when it sent a `/bet/unsettle` (an unsettle, or the first
 * half of a resettle), `settleType` when it sent a `/bet/settle` (a settle, or the second half of a resettle).
 */
export interface BetSettlementChange {
  /** The bet as it is now (row and selections with their results). */
  bet: Bet;
  unsettled: boolean;
  /** settle_type of the `/bet/settle` sent (D3), when one was. */
  settleType?: SettleType | undefined;
}

/**
 * Settlement hook (docs/adr/0009-bonuses.md), called by settlement inside the transaction that settles,
 * unsettles or resettles a batch of bets, after their own callbacks are enqueued — so the bonus callbacks of a bet
 * follow its `/bet/settle` or `/bet/unsettle` (D10 per-bet order):
 * - freebet (spec 01 "Freebet"): reserved → used when its bet is settled (won, lost or voided alike; the credit is the
 *   settle amount, D18);
 * - insurance (spec 01 "Bet insurance", D20; the insurance refund rule of docs/decisions.md: a refund is paid at most
 *   once). At every settle Bookie judges whether the result earns the refund (`earned`): a loss within
 *   `max_odds_count_lose` is paid with `/bet/insurances/accepted` (`refund_state` paid), anything else declined with
 *   `/bet/insurances/decline`; to a white label without insurance callbacks (announced none, or answered them
 *   404/405/501) nothing is sent and an earned refund is `not_paid` (an open item). At every unsettle a refund that
 *   stands is taken back with `/bet/insurances/cancel` where the white label takes it (on by default; it may opt out,
 *   or have answered it 404/405/501): the insurance is `cancelled` and the next settle judges it afresh. Where it
 *   cannot be taken back the refund is `kept`: it stays with the player, no insurance callback is sent for it again
 *   (never a second accepted), and while a later result does not earn it, it is an open item for the operator.
 *   A declined insurance moved no money: an unsettle makes it applied again, without a callback.
 *
 * @returns the number of callbacks enqueued.
 */
export async function onBetsSettled(
  tx: Executor,
  changes: readonly BetSettlementChange[],
  at: Date,
): Promise<number> {
  const callbacks: CallbackToEnqueue[] = [];
  const whiteLabels = new Map<string, WhiteLabel>();
  const whiteLabel = async (id: string): Promise<WhiteLabel | undefined> => {
    if (!whiteLabels.has(id)) {
      const row = await findWhiteLabel(tx, id);
      if (row) whiteLabels.set(id, toWhiteLabel(row));
    }
    return whiteLabels.get(id);
  };
  for (const { bet, unsettled, settleType } of changes) {
    const r = bet.row;
    if (r.freebet_id === null && r.insurance_id === null) continue;
    if (settleType !== undefined && r.freebet_id !== null) await useFreebet(tx, r.id, at);
    if (r.insurance_id === null) continue;
    let ins = await insuranceOfBet(tx, r.id);
    if (!ins) continue; // the bet was accepted without its insurance (never: acceptance claims it)
    const wl = await whiteLabel(r.white_label_id);
    // a white label always exists for its bets; without one, rely on the defaults
    const supports = (name: 'insurance' | 'insurance_cancel') => (wl ? supportsCallback(wl, name) : true);
    const base = { whiteLabelId: r.white_label_id, betId: r.id, foreignParams: r.foreign_params };
    if (unsettled) {
      if (ins.refund_state === 'paid') {
        if (supports('insurance_cancel')) {
          callbacks.push({
            ...base,
            path: CALLBACK_PATHS.insuranceCancel,
            body: { bet_id: r.id, bet_insurance_id: ins.id, refund_amount: money6(ins.refund_amount ?? '0') },
          });
          ins = await saveRefund(
            tx,
            ins,
            { status: 'cancelled', refund_state: 'cancel_requested', refund_amount: null, earned: null },
            at,
            'unsettled',
          );
        } else {
          // it cannot be taken back: it stays with the player, and is never paid again
          ins = await saveRefund(tx, ins, { refund_state: 'kept', earned: null }, at, 'unsettled');
        }
      } else if (ins.refund_state === 'kept') {
        ins = await saveRefund(tx, ins, { earned: null }, at, 'unsettled');
      } else if (ins.status === 'declined' || ins.status === 'paid') {
        // no refund stands (declined, or never paid): nothing to take back
        ins = await saveRefund(
          tx,
          ins,
          { status: 'applied', refund_state: null, refund_amount: null, earned: null },
          at,
          'unsettled',
        );
      }
    }
    if (settleType === undefined) continue;
    if (ins.refund_state !== 'kept' && ins.status !== 'applied' && ins.status !== 'cancelled') continue;
    const outcome = settleInsurance(
      settleType,
      // D64: a lost builder is one lost leg
      [...bet.selections, ...bet.builders.map((b) => b.row)].map((s) => ({ status: s.status as OddStatus })),
      parseDecimal(r.stake, { field: 'stake', maxDecimals: 6 }),
      ruleOf(ins),
    );
    if (ins.refund_state === 'kept') {
      // the refund stays with the player whatever the result: only whether it is still earned changes
      ins = await saveRefund(tx, ins, { earned: outcome.accepted }, at, 'settled');
      continue;
    }
    const paysThroughCallbacks = supports('insurance');
    if (outcome.accepted) {
      const refund = formatMoney(outcome.refundAmount);
      if (paysThroughCallbacks) {
        callbacks.push({
          ...base,
          path: CALLBACK_PATHS.insuranceAccepted,
          body: { bet_id: r.id, bet_insurance_id: ins.id, refund_amount: refund },
        });
      }
      ins = await saveRefund(
        tx,
        ins,
        {
          status: 'paid',
          refund_state: paysThroughCallbacks ? 'paid' : 'not_paid',
          refund_amount: refund,
          earned: true,
          resolved_at: at,
        },
        at,
        'settled',
      );
    } else {
      if (paysThroughCallbacks) {
        callbacks.push({
          ...base,
          path: CALLBACK_PATHS.insuranceDeclined,
          body: { bet_id: r.id, bet_insurance_id: ins.id },
        });
      }
      ins = await saveRefund(
        tx,
        ins,
        { status: 'declined', refund_state: null, refund_amount: null, earned: false, resolved_at: at },
        at,
        'settled',
      );
    }
  }
  return (await enqueueCallbacks(tx, callbacks)).length;
}
