import { type Executor, inTransaction } from '../../../db/transaction.js';
import { failpoint } from '../../../platform/failpoints.js';
import { type Bet, lockBets, type SelectionRow } from '../../bets/index.js';
import { prefetchLimits, type SettlementDeps } from '../deps.js';
import { OPEN_STATES, type SelectionKey } from '../settlement.repo.js';
import { type Applied, afterCommit, applyResults, type ResultUpdate } from './apply-results.js';
import type { SettlementLimits } from './decide.js';

/** What one page of a batch does to the selections it finds. */
export interface PageStep {
  /** Ledger cause, e.g. `feed:<v>` or `rollback:<v>`. */
  cause: string;
  /** The selection as the page leaves it (the same row when the page does not change it). */
  transform: (bet: Bet['row'], selection: SelectionRow) => SelectionRow;
  /** Settlement limits by white label and currency, filled as pages need them (shared by a batch's pages). */
  limits: Map<string, SettlementLimits>;
  /** Runs first in the page's transaction (the consumer's lease fencing); throws to abort the page. */
  fence?: ((tx: Executor) => Promise<void>) | undefined;
  /**
   * Awaited once the page's bets are locked and before it writes anything (commits in page order when pages run at
   * once); rejects to roll back. Pages never share a bet, but their writes take locks they may share — the exposure
   * lock of the bet state trigger, a player's risk and bonus rows — so a page that wrote before the one ahead of it
   * committed could hold a lock that page waits for, while it waits for that page: a cycle no database sees.
   */
  turn?: Promise<void>;
}

/**
 * One page of a settlement batch (docs/adr/0008-settlement.md "Batches"), for the market results and for rollbacks
 * alike: in one transaction, locks the bets of `keys`, gives the selections of each open bet their new status with
 * `step.transform`, and settles, unsettles or resettles each bet with its callbacks ({@link applyResults}); after the
 * commit, publishes the bet changes. Bets past settlement's open states are left alone.
 *
 * @returns what the page changed.
 */
export async function applyPage(
  deps: SettlementDeps,
  keys: readonly SelectionKey[],
  step: PageStep,
): Promise<Applied> {
  await prefetchLimits(deps, keys, step.limits);
  const applied = await inTransaction(deps.database.db, async (tx) => {
    await step.fence?.(tx);
    const bets = await lockBets(
      tx,
      keys.map((k) => k.betId),
    );
    const updates: ResultUpdate[] = [];
    for (const bet of bets) {
      if (!OPEN_STATES.includes(bet.row.state)) continue;
      updates.push({
        bet,
        selections: bet.selections.map((s) => step.transform(bet.row, s)),
        builderLegs: bet.builders.map((b) => b.legs.map((s) => step.transform(bet.row, s))),
      });
    }
    await step.turn;
    return applyResults(tx, updates, {
      cause: step.cause,
      at: new Date(deps.clock.now()),
      limits: step.limits,
      currentEvent: deps.currentEvent,
    });
  });
  failpoint('settlement:after-commit');
  afterCommit(deps, applied);
  return applied;
}
