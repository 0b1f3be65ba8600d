import type { Executor } from '../../../db/transaction.js';
import { type CallbackToEnqueue, enqueueCallbacks } from '../../callbacks/index.js';
import { insertLedger, type LedgerRow } from '../settlement.repo.js';

/** A ledger row before its callback is enqueued (the request id comes from the outbox). */
export type LedgerEntry = Omit<LedgerRow, 'requestId'>;

/**
 * The money a batch moves: each `/bet/settle` or `/bet/unsettle` callback and the ledger row that mirrors it, in
 * the order they happen (an unsettle before the settle that follows it, DECISIONS D10, D12).
 */
export interface MoneyMoves {
  readonly callbacks: CallbackToEnqueue[];
  readonly ledger: LedgerEntry[];
}

/** No money moved yet. */
export function noMoneyMoves(): MoneyMoves {
  return { callbacks: [], ledger: [] };
}

/** Adds one callback and the ledger row that mirrors it. */
export function addMoneyMove(moves: MoneyMoves, callback: CallbackToEnqueue, entry: LedgerEntry): void {
  moves.callbacks.push(callback);
  moves.ledger.push(entry);
}

/**
 * Records the moves inside `tx`: enqueues the callbacks in order (the outbox) and appends each ledger row with its
 * callback's request id (`bet_settlement`, DECISIONS D12), in the transaction of the bet changes that cause them.
 *
 * @returns the number of callbacks enqueued.
 */
export async function recordMoneyMoves(tx: Executor, moves: MoneyMoves): Promise<number> {
  const enqueued = await enqueueCallbacks(tx, moves.callbacks);
  await insertLedger(
    tx,
    moves.ledger.map((l, i) => ({ ...l, requestId: (enqueued[i] as { requestId: string }).requestId })),
  );
  return enqueued.length;
}
