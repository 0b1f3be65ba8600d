import { DomainError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import {
  type CallbackDelivery,
  type DeliveryFilter,
  findDelivery,
  listDeliveries,
} from './callbacks.repo.js';

/** The operator's view of one delivery. */
export interface DeliveryView {
  id: string;
  request_id: string;
  white_label_id: string;
  bet_id: string;
  path: string;
  mode: 'async' | 'sync';
  status: 'pending' | 'delivered' | 'failed' | 'unsupported';
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  body?: string;
  foreign_params?: string;
}

/** Maps a row to its view; `full` adds the body and headers. */
export function toDeliveryView(d: CallbackDelivery, full = false): DeliveryView {
  return {
    id: d.id.toString(),
    request_id: d.request_id,
    white_label_id: d.white_label_id,
    bet_id: d.bet_id,
    path: d.path,
    mode: d.mode,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? new Date(d.next_attempt_at).toISOString() : null,
    last_status: d.last_status,
    last_error: d.last_error,
    last_attempt_at: d.last_attempt_at ? new Date(d.last_attempt_at).toISOString() : null,
    delivered_at: d.delivered_at ? new Date(d.delivered_at).toISOString() : null,
    created_at: new Date(d.created_at).toISOString(),
    ...(full ? { body: d.body, foreign_params: d.foreign_params } : {}),
  };
}

/** Lists outbox deliveries, newest first (operator API and `bookie callbacks list`). */
export async function listCallbackDeliveries(db: Executor, filter: DeliveryFilter): Promise<DeliveryView[]> {
  return (await listDeliveries(db, filter)).map((d) => toDeliveryView(d));
}

/**
 * One delivery by outbox id or request_id, with its body. Throws not_found; with `whiteLabelId`, a delivery of
 * another white label is not found either.
 */
export async function showCallbackDelivery(
  db: Executor,
  key: string,
  whiteLabelId?: string,
): Promise<DeliveryView> {
  const d = await findDelivery(db, key);
  if (!d || (whiteLabelId !== undefined && d.white_label_id !== whiteLabelId)) {
    throw new DomainError('not_found', `no callback delivery ${key}`, { field: 'id' });
  }
  return toDeliveryView(d, true);
}
