import { CALLBACK_PATHS } from '@bookie/contracts';
import type { Executor } from '../../db/transaction.js';
import { type ClaimedDelivery, lastDeliveredBefore, withdrawPendingCallbacks } from '../callbacks/index.js';
import { lockInsurance } from './bonuses.repo.js';
import { saveRefund } from './insurance-refund.js';

const INSURANCE_PATHS = [
  CALLBACK_PATHS.insuranceAccepted,
  CALLBACK_PATHS.insuranceDeclined,
  CALLBACK_PATHS.insuranceCancel,
];

function insuranceIdOf(d: ClaimedDelivery): string | undefined {
  try {
    const id = (JSON.parse(d.body) as { bet_insurance_id?: unknown }).bet_insurance_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The partner answered `/bet/insurances/accepted` 404, 405 or 501 (the insurance refund rule): the refund never
 * reached the player. In the transaction that records the answer: the bet's insurance callbacks queued behind it are
 * withdrawn (a cancel of the refund that was not paid, or a later accepted or decline to a partner without insurance
 * callbacks), and the insurance records that nothing stands — `not_paid` while the bet's latest result earns the
 * refund, an open item for the operator.
 */
export async function onInsuranceAcceptedUnsupported(tx: Executor, d: ClaimedDelivery): Promise<void> {
  const id = insuranceIdOf(d);
  const ins = id ? await lockInsurance(tx, id) : undefined;
  if (!ins) return;
  await withdrawPendingCallbacks(
    tx,
    d.bet_id,
    INSURANCE_PATHS,
    d.id,
    'withdrawn: the partner answered /bet/insurances/accepted as not implemented, so no refund of it stands',
  );
  const at = new Date();
  if (ins.earned === true) {
    const refund = ins.refund_amount ?? (JSON.parse(d.body) as { refund_amount: string }).refund_amount;
    await saveRefund(
      tx,
      ins,
      { status: 'paid', refund_state: 'not_paid', refund_amount: refund },
      at,
      'accepted_unsupported',
    );
  } else {
    await saveRefund(
      tx,
      ins,
      {
        status: ins.earned === false ? 'declined' : 'applied',
        refund_state: null,
        refund_amount: null,
      },
      at,
      'accepted_unsupported',
    );
  }
}

/**
 * The partner answered `/bet/insurances/cancel` 404, 405 or 501 (the insurance refund rule): the refund it was to take
 * back stands with the player and cannot be taken back. In the transaction that records the answer: the bet's
 * insurance callbacks queued behind it are withdrawn (never a second accepted while the first stands), and the
 * insurance keeps the refund (`kept`, status `paid`); while the bet's latest result does not earn it, it is an open
 * item for the operator. Nothing changes when the accepted it cancels was itself never delivered.
 */
export async function onInsuranceCancelUnsupported(tx: Executor, d: ClaimedDelivery): Promise<void> {
  const id = insuranceIdOf(d);
  const ins = id ? await lockInsurance(tx, id) : undefined;
  if (!ins) return;
  if (!(await lastDeliveredBefore(tx, d.bet_id, CALLBACK_PATHS.insuranceAccepted, d.id))) return;
  await withdrawPendingCallbacks(
    tx,
    d.bet_id,
    INSURANCE_PATHS,
    d.id,
    'withdrawn: the refund paid before stands (the partner answered /bet/insurances/cancel as not implemented)',
  );
  const refund = (JSON.parse(d.body) as { refund_amount: string }).refund_amount;
  await saveRefund(
    tx,
    ins,
    { status: 'paid', refund_state: 'kept', refund_amount: refund },
    new Date(),
    'cancel_unsupported',
  );
}
