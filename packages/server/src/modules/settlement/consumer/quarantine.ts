import { type Executor, inTransaction } from '../../../db/transaction.js';
import type { LogItem } from '../../feed/index.js';
import type { ConsumerDeps } from '../deps.js';
import { quarantineEntry } from '../quarantine.repo.js';

/**
 * Gives up on an entry that failed `attempts` times in a row: stores it with its error in the quarantine (in
 * a transaction that checks the lease), loudly. The caller then goes on past it.
 */
export async function quarantineItem(
  deps: ConsumerDeps,
  consumer: string,
  item: LogItem,
  err: unknown,
  attempts: number,
  hooks: { holdsLease: (tx: Executor) => Promise<void>; stored: () => unknown },
): Promise<void> {
  const error = err instanceof Error ? err.message : String(err);
  await inTransaction(deps.database.db, async (tx) => {
    await hooks.holdsLease(tx);
    await quarantineEntry(tx, {
      consumer,
      v: item.v,
      line: item.line,
      error: error.slice(0, 2000),
      attempts,
      at: new Date(deps.clock.now()),
    });
  });
  hooks.stored();
  deps.logger.error(
    { err, v: item.v.toString(), attempts },
    'settlement: entry quarantined after repeated failures; settlement goes on past it (list, retry or skip it: bookie settlement quarantine)',
  );
}
