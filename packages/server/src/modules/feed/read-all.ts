import type { Database } from '../../db/database.js';
import type { Executor } from '../../db/transaction.js';
import { readBounds, readSnapshotPage } from './feed.repo.js';

/** Where {@link readAll} writes: first the version, then chunks of snapshot lines. */
export interface AllSink {
  /** Called once, before any line, with the cut's version (the `Last-Version` header). */
  start(lastVersion: bigint): void;
  /** Takes one chunk (whole lines, each ending in `\n`); resolves when more may be written. */
  write(chunk: string): Promise<void>;
  /** True when the reader went away; reading stops. */
  aborted(): boolean;
}

/** Snapshots per page of {@link readAll}. */
export const ALL_PAGE_SIZE = 50;

/**
 * Reads every snapshot, one JSON line each, with the version of the cut (spec 02 `GET /all`), page by page by id,
 * never holding the whole body in memory.
 *
 * On Postgres the pages are read in one REPEATABLE READ transaction: the lines are exactly the state at
 * `lastVersion`. On PGlite (one connection, which a long transaction would take from the writer) each page is its
 * own query: a line may be newer than `lastVersion`, never older; replaying the log from `lastVersion` converges to
 * the same state because every change sets absolute values (docs/adr/0004-trading-feed.md).
 */
export async function readAll(deps: { database: Database }, sink: AllSink): Promise<void> {
  const run = async (ex: Executor) => {
    const { head } = await readBounds(ex);
    sink.start(head);
    let after: string | null = null;
    for (;;) {
      const rows = await readSnapshotPage(ex, after, ALL_PAGE_SIZE);
      if (rows.length === 0) break;
      let chunk = '';
      for (const r of rows) chunk += `${r.snapshot}\n`;
      await sink.write(chunk);
      if (sink.aborted() || rows.length < ALL_PAGE_SIZE) break;
      // let other requests run between pages: /all must not stall the event loop
      await new Promise<void>((resolve) => setImmediate(resolve));
      after = rows[rows.length - 1]!.id;
    }
  };
  if (deps.database.kind === 'pg') {
    await deps.database.db.transaction().setIsolationLevel('repeatable read').execute(run);
  } else {
    await run(deps.database.db);
  }
}
