import { DomainError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { findDelivery, makeDueNow, notifyOutbox } from './callbacks.repo.js';
import { type DeliveryView, toDeliveryView } from './list-deliveries.js';

/**
 * Operator "retry now" (DECISIONS D10: visible and re-triggerable): makes a pending delivery — or an optional one
 * the partner did not implement (`unsupported`, D45) — due at once and wakes the dispatchers. Throws not_found, or
 * conflict when the delivery is not pending (already delivered, or a finished synchronous /bet/place). With
 * `whiteLabelId`, another white label's delivery is not found.
 */
export async function retryCallbackDelivery(
  db: Executor,
  key: string,
  whiteLabelId?: string,
): Promise<DeliveryView> {
  const d = await findDelivery(db, key);
  if (!d || (whiteLabelId !== undefined && d.white_label_id !== whiteLabelId))
    throw new DomainError('not_found', `no callback delivery ${key}`, { field: 'id' });
  if ((d.status !== 'pending' && d.status !== 'unsupported') || d.mode !== 'async') {
    throw new DomainError('conflict', `callback delivery ${key} is ${d.status}, not pending`, {
      status: d.status,
    });
  }
  await makeDueNow(db, d.id);
  await notifyOutbox(db);
  const after = await findDelivery(db, d.id.toString());
  return toDeliveryView(after ?? d);
}
