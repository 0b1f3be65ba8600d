import type { OptionalCallback } from '@bookie/contracts';
import type { DB, Kysely } from '../../db/schema.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { whiteLabelChanged } from './cached-white-labels.js';
import { audit, learnOptionalCallback as learnRow } from './tenants.repo.js';

/** What an answer taught Bookie about one optional callback of a white label. */
export interface LearntOptionalCallback {
  whiteLabelId: string;
  callback: OptionalCallback;
  /** `unsupported` after a 404, 405 or 501; `supported` after a 2xx that followed one. */
  learnt: 'supported' | 'unsupported';
  /** The HTTP status of the answer. */
  status: number;
  at: Date;
}

/**
 * Records what Bookie learnt of a white label's optional callback (the optional callbacks rule), inside the caller's
 * transaction, with an audit entry (actor `bookie`) when it changed what Bookie knew. Returns whether it changed.
 * Every process sees it within the white label cache's time to live.
 */
export async function learnOptionalCallback(tx: Executor, l: LearntOptionalCallback): Promise<boolean> {
  const changed = await learnRow(tx, l.whiteLabelId, l.callback, l.learnt, l.status, l.at);
  if (changed) {
    await audit(tx, {
      at: l.at,
      actor: 'bookie',
      action: 'white_label.optional_callback_learnt',
      subject: `white_label:${l.whiteLabelId}`,
      details: JSON.stringify({ callback: l.callback, learnt: l.learnt, status: l.status }),
    });
  }
  return changed;
}

/**
 * {@link learnOptionalCallback} in a transaction of its own, for answers outside the outbox (heartbeats, banners):
 * that an optional callback answered 404, 405 or 501 is unsupported. Returns whether it changed what Bookie knew.
 */
export async function learnUnsupportedNow(
  db: Kysely<DB>,
  l: Omit<LearntOptionalCallback, 'learnt'>,
): Promise<boolean> {
  const changed = await inTransaction(db, (tx) => learnOptionalCallback(tx, { ...l, learnt: 'unsupported' }));
  if (changed) whiteLabelChanged(l.whiteLabelId);
  return changed;
}
