import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/transaction.js';
import { sendDeliveries } from './callbacks.repo.js';

/** A callback to put in the outbox. */
export interface CallbackToEnqueue {
  whiteLabelId: string;
  betId: string;
  /** Callback path, e.g. `/bet/accept`. */
  path: string;
  /** The callback body without `request_id`; it is added here, once (D7). */
  body: Record<string, unknown>;
  /** The session's params, sent as the Foreign-Params header (D7); `{}` when none. */
  foreignParams: Record<string, unknown>;
}

/** A callback serialised once with its request_id: the exact bytes every attempt sends (D7). */
export interface PreparedCallback {
  whiteLabelId: string;
  betId: string;
  requestId: string;
  path: string;
  body: string;
  foreignParams: string;
}

/** An enqueued callback: its outbox id, request_id and the exact body bytes. */
export interface EnqueuedCallback extends PreparedCallback {
  id: bigint;
}

/**
 * Serialises a callback with its request_id (a fresh one unless given): `request_id` first, then the body's fields.
 * The same bet and request_id give the same bytes, so a callback sent before it is written (the synchronous
 * /bet/place) can be written later from the bet.
 */
export function prepareCallback(it: CallbackToEnqueue, requestId: string = randomUUID()): PreparedCallback {
  return {
    whiteLabelId: it.whiteLabelId,
    betId: it.betId,
    requestId,
    path: it.path,
    body: withRequestId(requestId, it.body),
    foreignParams: JSON.stringify(it.foreignParams ?? {}),
  };
}

/** An array index as a property key (such keys come first in an object, whatever order they were set in). */
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * `JSON.stringify({ request_id: requestId, ...body })`, without the copy of the body: `request_id` is written first
 * and the body's own text follows. An object puts array-index keys before every other key, and a body's own
 * `request_id` would take that first place, and a `toJSON` would serialise the copy: such a body (no callback's body
 * is one) is copied as before.
 */
export function withRequestId(requestId: string, body: Record<string, unknown>): string {
  let first: string | undefined;
  for (const k in body) {
    first = k;
    break;
  }
  if (
    first !== undefined &&
    (ARRAY_INDEX.test(first) || Object.hasOwn(body, 'request_id') || 'toJSON' in body)
  ) {
    return JSON.stringify({ request_id: requestId, ...body });
  }
  const rest = JSON.stringify(body);
  const head = `{"request_id":${JSON.stringify(requestId)}`;
  return rest === '{}' ? `${head}}` : `${head},${rest.slice(1)}`;
}

/**
 * Writes asynchronous callbacks (the dispatcher sends them) to the outbox inside `tx` (the transaction of the bet change that causes them), with a fresh
 * request_id each, serialised once — these bytes are what every attempt sends (DECISIONS D7). Dispatchers in every
 * process are woken when the caller calls `dispatcher.kick()` after `tx` commits (or by their poll).
 */
export async function enqueueCallbacks(
  tx: Executor,
  items: CallbackToEnqueue[],
  /** The rows are born leased to this dispatcher, which delivers them after the commit (`dispatcher.adopt`). */
  lease?: { owner: string; ms: number },
): Promise<EnqueuedCallback[]> {
  return (await sendCallbacks(tx, items, lease)).enqueued;
}

/**
 * {@link enqueueCallbacks} sent without waiting inside a transaction: resolves once the outbox insert is on its way, to
 * the enqueued callbacks' promise (their ids come with the insert's answer), so that the commit after it shares its
 * round trip. Outside a transaction, and on PGlite, the insert is waited for first.
 */
export async function sendCallbacks(
  tx: Executor,
  items: CallbackToEnqueue[],
  /** The rows are born leased to this dispatcher, which delivers them after the commit (`dispatcher.adopt`). */
  lease?: { owner: string; ms: number },
): Promise<{ enqueued: Promise<EnqueuedCallback[]> }> {
  if (items.length === 0) return { enqueued: Promise.resolve([]) };
  const rows = items.map((it) => prepareCallback(it));
  const sent = await sendDeliveries(tx, rows, lease);
  const enqueued = sent.ids.then((ids) => enqueuedOf(rows, ids));
  // a caller that fails before reading them leaves them unread: not an unhandled rejection
  enqueued.catch(() => {});
  return { enqueued };
}

/** The outbox rows as enqueued, each with its id (in the order of `rows`). */
function enqueuedOf(rows: readonly PreparedCallback[], ids: readonly bigint[]): EnqueuedCallback[] {
  return rows.map((r, i) => ({
    id: ids[i] as bigint,
    whiteLabelId: r.whiteLabelId,
    betId: r.betId,
    requestId: r.requestId,
    path: r.path,
    body: r.body,
    foreignParams: r.foreignParams,
  }));
}
