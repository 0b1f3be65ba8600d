import type { Executor } from '../../../db/transaction.js';
import type { ConsumerDeps } from '../deps.js';
import type { Applied } from '../results/apply-results.js';
import { refreshBets } from '../results/refresh-bets.js';
import { staleAcceptedBets } from '../settlement.repo.js';

/**
 * How old a reported bet's (`POST /bets`) decision time must be before a sweep looks at it: its decision time (its
 * placement deadline) is taken before its insert commits (the group commit's queue and flush, well under a second at
 * full load), so a bet decided just before a sweep may become visible just after it. A sweep examines the reported
 * bets of its window moved back by this much, each once, when it has long been visible. Frame bets need no
 * overlap: a sweep looks at them once their deadline passed, when their hold was committed long before.
 */
export const SWEEP_OVERLAP_MS = 10_000;

/** Bets recomputed per sweep. */
export const SWEEP_PAGE = 500;

/** Where a sweep starts and what it reports back to its consumer. */
export interface SweepState {
  /** Bets whose placement deadline is after this (reported ones: minus {@link SWEEP_OVERLAP_MS}) are looked at (clock ms). */
  from: number;
  /** Moves the watermark: called when a sweep found less than a page, with its start or a placing bet's deadline. */
  moveFrom: (ms: number) => void;
  /** Checks, in each write transaction, that the consumer still leads. */
  fence: (tx: Executor) => Promise<void>;
  /** Adds what the sweep applied to the consumer's counts. */
  count: (applied: Applied) => unknown;
}

/**
 * Catches bets accepted while their market was being resulted or rolled back: those whose placement deadline passed
 * since the previous sweep (at leadership start, in the last `sweepWindowMs`; reported bets, decided at their
 * deadline, once it is {@link SWEEP_OVERLAP_MS} old) that do not show what settlement knows. A frame bet is so examined
 * once, after its deadline (`PLACEMENT_DEADLINE_MS`, 30 s by default) rather than right after its acceptance; one
 * still placing then holds the watermark at its deadline until it is decided. The watermark moves only when a sweep
 * found less than a page, so none is left behind.
 */
export async function sweepAcceptedBets(deps: ConsumerDeps, state: SweepState): Promise<void> {
  const startedAt = deps.clock.now();
  const { ids, placingSince } = await staleAcceptedBets(deps.database.db, {
    from: new Date(state.from),
    reportedFrom: new Date(state.from - SWEEP_OVERLAP_MS),
    to: new Date(startedAt),
    reportedTo: new Date(startedAt - SWEEP_OVERLAP_MS),
    limit: SWEEP_PAGE,
  });
  if (ids.length < SWEEP_PAGE) {
    state.moveFrom(placingSince === null ? startedAt : Math.min(startedAt, placingSince.getTime() - 1));
  }
  if (ids.length === 0) return;
  const applied = await refreshBets(deps, ids, { cause: 'sweep', fence: state.fence });
  state.count(applied);
  if (applied.settled + applied.resettled + applied.unsettled > 0) {
    deps.logger.info({ bets: ids.length, settled: applied.settled }, 'settlement: sweep settled late bets');
  }
}
