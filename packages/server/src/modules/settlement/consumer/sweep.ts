import type { Executor } from '../../../db/transaction.js';
import type { ConsumerDeps } from '../deps.js';
import type { Applied } from '../results/apply-results.js';
import { refreshBets } from '../results/refresh-bets.js';
import { staleAcceptedBets } from '../settlement.repo.js';

/**
 * How far behind the previous sweep's start a sweep looks again: a bet's `decided_at` is taken before its
 * transaction commits (the group commit's queue and flush, well under a second at full load), so a bet decided just
 * before a sweep may become visible just after it. Ten seconds covers that gap many times over while each bet is
 * looked at about six times (every 2 s) instead of thirty.
 */
export const SWEEP_OVERLAP_MS = 10_000;

/** Bets recomputed per sweep. */
export const SWEEP_PAGE = 500;

/** Where a sweep starts and what it reports back to its consumer. */
export interface SweepState {
  /** Bets decided from here on (minus {@link SWEEP_OVERLAP_MS}) are looked at (clock ms). */
  from: number;
  /** Moves the watermark: called with the sweep's start when it found less than a page. */
  moveFrom: (ms: number) => void;
  /** Checks, in each write transaction, that the consumer still leads. */
  fence: (tx: Executor) => Promise<void>;
  /** Adds what the sweep applied to the consumer's counts. */
  count: (applied: Applied) => unknown;
}

/**
 * Catches bets accepted while their market was being resulted or rolled back: those decided since the previous
 * sweep started (minus {@link SWEEP_OVERLAP_MS}; at leadership start, the last `sweepWindowMs`) that do not show what
 * settlement knows. The watermark moves only when a sweep found less than a page, so none is left behind.
 */
export async function sweepAcceptedBets(deps: ConsumerDeps, state: SweepState): Promise<void> {
  const startedAt = deps.clock.now();
  const since = new Date(state.from - SWEEP_OVERLAP_MS);
  const ids = await staleAcceptedBets(deps.database.db, since, SWEEP_PAGE);
  if (ids.length < SWEEP_PAGE) state.moveFrom(startedAt);
  if (ids.length === 0) return;
  const applied = await refreshBets(deps, ids, { cause: 'sweep', fence: state.fence });
  state.count(applied);
  if (applied.settled + applied.resettled + applied.unsettled > 0) {
    deps.logger.info({ bets: ids.length, settled: applied.settled }, 'settlement: sweep settled late bets');
  }
}
