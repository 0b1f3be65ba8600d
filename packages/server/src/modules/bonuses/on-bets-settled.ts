import { CALLBACK_PATHS } from '@bookie/contracts';
import { formatMoney, type OddStatus, parseDecimal, type SettleType, settleInsurance } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { Bet } from '../bets/bet.js';
import { money6 } from '../bets/callback-bodies.js';
import { type CallbackToEnqueue, enqueueCallbacks } from '../callbacks/enqueue-callbacks.js';
import { insuranceOfBet, sendsInsuranceCancel, updateInsurance, useFreebet } from './bonuses.repo.js';
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
 * - insurance (spec 01 "Bet insurance", D20), at every settle: paid (`/bet/insurances/accepted` with
 *   `refund_amount`) when the bet settled lost within `max_odds_count_lose`, else declined
 *   (`/bet/insurances/decline`); at every unsettle: paid → cancelled with `/bet/insurances/cancel` (only to white
 *   labels that turned `insurance_cancel_callbacks` on, D45) carrying the
 *   refund it takes back (as `/bet/unsettle` reverses a settle, D12), declined → applied (no money moved, no
 *   callback). So Σ accepted − Σ cancel = the refund currently paid, at every moment.
 *
 * @returns the number of callbacks enqueued.
 */
export async function onBetsSettled(
  tx: Executor,
  changes: readonly BetSettlementChange[],
  at: Date,
): Promise<number> {
  const callbacks: CallbackToEnqueue[] = [];
  for (const { bet, unsettled, settleType } of changes) {
    const r = bet.row;
    if (r.freebet_id === null && r.insurance_id === null) continue;
    if (settleType !== undefined && r.freebet_id !== null) await useFreebet(tx, r.id, at);
    if (r.insurance_id === null) continue;
    const ins = await insuranceOfBet(tx, r.id);
    if (!ins) continue; // the bet was accepted without its insurance (never: acceptance claims it)
    const base = { whiteLabelId: r.white_label_id, betId: r.id, foreignParams: r.foreign_params };
    let status = ins.status;
    if (unsettled) {
      if (status === 'paid') {
        // not in spec 01's callback table: only for white labels that turned it on (D45)
        if (await sendsInsuranceCancel(tx, r.white_label_id)) {
          callbacks.push({
            ...base,
            path: CALLBACK_PATHS.insuranceCancel,
            body: { bet_id: r.id, bet_insurance_id: ins.id, refund_amount: money6(ins.refund_amount ?? '0') },
          });
        }
        status = 'cancelled';
        await updateInsurance(tx, ins.id, { status, refund_amount: null, updated_at: at });
      } else if (status === 'declined') {
        status = 'applied';
        await updateInsurance(tx, ins.id, { status, updated_at: at });
      }
    }
    if (settleType !== undefined && (status === 'applied' || status === 'cancelled')) {
      const outcome = settleInsurance(
        settleType,
        bet.selections.map((s) => ({ status: s.status as OddStatus })),
        parseDecimal(r.stake, { field: 'stake', maxDecimals: 6 }),
        ruleOf(ins),
      );
      if (outcome.accepted) {
        const refund = formatMoney(outcome.refundAmount);
        callbacks.push({
          ...base,
          path: CALLBACK_PATHS.insuranceAccepted,
          body: { bet_id: r.id, bet_insurance_id: ins.id, refund_amount: refund },
        });
        await updateInsurance(tx, ins.id, {
          status: 'paid',
          refund_amount: refund,
          resolved_at: at,
          updated_at: at,
        });
      } else {
        callbacks.push({
          ...base,
          path: CALLBACK_PATHS.insuranceDeclined,
          body: { bet_id: r.id, bet_insurance_id: ins.id },
        });
        await updateInsurance(tx, ins.id, {
          status: 'declined',
          refund_amount: null,
          resolved_at: at,
          updated_at: at,
        });
      }
    }
  }
  return (await enqueueCallbacks(tx, callbacks)).length;
}
