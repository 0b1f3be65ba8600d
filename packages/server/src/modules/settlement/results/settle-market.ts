import { type Executor, inTransaction } from '../../../db/transaction.js';
import type { SelectionRow } from '../../bets/index.js';
import type { SettlementDeps } from '../deps.js';
import {
  marketHasBets,
  type SelectionKey,
  type StoredResult,
  scanOddPage,
  upsertResults,
} from '../settlement.repo.js';
import { applyPage } from './apply-page.js';
import { type Applied, addApplied, NOTHING_APPLIED } from './apply-results.js';
import type { SettlementLimits } from './decide.js';
import { NOT_RESULTED, type OddResult, sameResult } from './results.js';

/** How batches run. */
export interface BatchOptions {
  /** Selections per batch transaction (default 1000). */
  pageSize?: number;
  /** Runs first in every batch transaction (the consumer's lease fencing); throws to abort the batch. */
  fence?: (tx: Executor) => Promise<void>;
  /**
   * Pages prepared at once (default 2): the next page finds and locks its bets while the previous one writes and
   * commits; its writes and commit follow in page order, each after the previous page's afterBatch.
   */
  pagesInFlight?: number;
  /** Called after each batch commits (tests use it to cut a batch short). */
  afterBatch?: (info: { cause: string; batch: number; applied: Applied }) => void | Promise<void>;
}

/** Default selections per batch transaction. */
export const DEFAULT_PAGE_SIZE = 1000;

/** Default pages in flight (see {@link BatchOptions.pagesInFlight}). */
export const DEFAULT_PAGES_IN_FLIGHT = 2;

/** Above any selection index (int2): a keyset position after every selection of a bet. */
const LAST_IDX = 32_767;

/** Input of {@link settleMarket}. */
export interface SettleMarketInput {
  eventId: string;
  marketId: string;
  /** The results of the market's odds now (see `marketResults`). */
  results: ReadonlyMap<string, OddResult>;
  /** The results stored for the market (absent odds: not resulted). */
  stored: ReadonlyMap<string, StoredResult> | undefined;
  /** The log version the results come from. */
  version: bigint;
  /** Ledger cause, e.g. `feed:<v>`. */
  cause: string;
}

/**
 * Brings every open bet on a market in line with the market's results (docs/adr/0008-settlement.md "Batches"):
 * records the results (not yet applied), then, odd by odd, pages through the selections that do not show their
 * result yet — keyset over (bet_id, idx), `pageSize` per transaction, never the whole market in memory — locks
 * their bets, writes the results and settles, unsettles or resettles each bet with its callbacks; finally marks
 * the results applied. A market whose results are already applied is skipped without a scan. Placement is never
 * blocked: batches lock only bets past placement, for one short transaction each.
 */
export async function settleMarket(
  deps: SettlementDeps,
  input: SettleMarketInput,
  opts: BatchOptions = {},
): Promise<Applied> {
  const todo: Array<{ oddId: string; result: OddResult }> = [];
  for (const [oddId, result] of [...input.results].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const stored = input.stored?.get(oddId);
    const same = stored ? stored.applied && sameResult(stored, result) : sameResult(NOT_RESULTED, result);
    if (!same) todo.push({ oddId, result });
  }
  if (todo.length === 0) return NOTHING_APPLIED;
  const { database } = deps;
  const record = (applied: boolean) =>
    inTransaction(database.db, async (tx) => {
      await opts.fence?.(tx);
      await upsertResults(tx, input.eventId, input.marketId, todo, input.version, applied);
    });
  await record(false);
  let total = NOTHING_APPLIED;
  // a market nobody bet on only gets its results recorded
  if (await marketHasBets(database.db, input.eventId, input.marketId)) {
    const limits = new Map<string, SettlementLimits>();
    // PGlite has one connection: a page waiting for its turn would hold it from the page before
    const inFlight =
      database.kind === 'pglite' ? 1 : Math.max(1, opts.pagesInFlight ?? DEFAULT_PAGES_IN_FLIGHT);
    let batch = 0;
    /** Settles when the previous page has committed and its afterBatch ran; rejects when it failed. */
    let previous: Promise<void> = Promise.resolve();
    const running = new Set<Promise<void>>();
    let failed: unknown;
    const page = async (keys: SelectionKey[], turn: Promise<void>) => {
      // commits in page order, after the previous page's afterBatch: a failed or cut-short earlier page rolls this
      // one back (the entry is redone from the saved version, as with one page at a time)
      const applied = await applyPage(deps, keys, {
        cause: input.cause,
        limits,
        fence: opts.fence,
        transform: (_bet, s) => withMarketResult(s, input),
        turn,
      });
      total = addApplied(total, { ...applied, changed: [] });
      batch++;
      await opts.afterBatch?.({ cause: input.cause, batch, applied });
    };
    for (const { oddId, result } of todo) {
      let after: SelectionKey | null = null;
      while (failed === undefined) {
        const keys = await scanOddPage(database.db, {
          eventId: input.eventId,
          marketId: input.marketId,
          oddId,
          result,
          after,
          limit: opts.pageSize ?? DEFAULT_PAGE_SIZE,
        });
        if (keys.length === 0) break;
        // the next page starts after the last bet (all its selections are settled with this page): pages in flight
        // never share a bet, so their locks never wait on each other
        const last = keys[keys.length - 1] as SelectionKey;
        after = { ...last, idx: LAST_IDX };
        const p = page(keys, previous);
        previous = p;
        const tracked: Promise<void> = p.then(
          () => {
            running.delete(tracked);
          },
          (err) => {
            running.delete(tracked);
            failed ??= err;
          },
        );
        running.add(tracked);
        while (running.size >= inFlight) await Promise.race(running);
      }
      // the next odd's scan must see this odd's pages committed
      await Promise.all(running);
      if (failed !== undefined) throw failed;
    }
  }
  await record(true);
  return total;
}

/** A selection with the feed result of its odd, when it is on this market and the feed decides it. */
function withMarketResult(s: SelectionRow, input: SettleMarketInput): SelectionRow {
  if (s.sport_event_id !== input.eventId || s.market_id !== input.marketId || s.result_source !== 'feed')
    return s;
  const r = input.results.get(s.odd_id);
  if (!r) return s;
  return { ...s, status: r.status, dead_heat: r.deadHeat, status_reason: r.reason };
}
