import type { OddStatus } from '@bookie/core';
import { type Executor, inTransaction } from '../../../db/transaction.js';
import { type Bet, lockBets, type SelectionRow } from '../../bets/index.js';
import { prefetchLimits, type SettlementDeps } from '../deps.js';
import {
  betOwners,
  insertAudit,
  loadResultsFor,
  OPEN_STATES,
  type RollbackRow,
  resultKey,
  rollbacksFor,
} from '../settlement.repo.js';
import { type Applied, afterCommit, applyResults, type ResultUpdate } from './apply-results.js';
import { NOT_RESULTED } from './results.js';
import { rollbackCatches, rolledBack } from './rollback-bets.js';

/** An operator's result for some selections of a bet (refund manually, void, cancel). */
export interface Override {
  /** Selection indexes (0-based: the plain selections, then the bet's builders), or every selection. */
  indices: readonly number[] | 'all';
  status: OddStatus;
  reason: string;
}

/** Options of {@link refreshBets}. */
export interface RefreshOptions {
  /** Ledger cause. */
  cause: string;
  /** Gives selections set by an operator back to the feed first (resettle --reinstate). */
  reinstate?: boolean;
  /** Sets these selections' results by hand (source `manual`: the feed no longer changes them). */
  override?: Override;
  /**
   * Results of foreign selections (MTS mixed combos) as the partner reports them, by {@link foreignKey}; a foreign
   * selection left out keeps its result.
   */
  foreign?: ReadonlyMap<string, { status: OddStatus; reason: string }>;
  /** Runs first in the transaction (the consumer's fencing; a partner's report of its cash-out orders). */
  fence?: (tx: Executor) => Promise<void>;
  /** Checks each locked bet before anything is written; throws to refuse (operator actions). */
  check?: (bet: Bet) => void;
  /** Writes an audit_log row in the same transaction (operator actions). */
  audit?: { actor: string; action: string; details: Record<string, unknown> };
}

/** The key of a foreign selection in {@link RefreshOptions.foreign}. */
export function foreignKey(betId: string, foreignId: string): string {
  return `${betId}\u0000${foreignId}`;
}

/**
 * The result a selection must show, from what settlement knows (operator > rollback > feed). `position` is what an
 * operator's indices name: a plain selection's idx, or for an inner leg of a builder its builder's position after
 * the plain selections (the operator acts on the builder as a whole).
 */
function target(
  s: SelectionRow,
  bet: Bet,
  results: Map<string, { status: OddStatus; deadHeat: string | null; reason: string }>,
  rollbacks: readonly RollbackRow[],
  opts: RefreshOptions,
  position: number = s.idx,
): SelectionRow {
  const o = opts.override;
  if (o && (o.indices === 'all' || o.indices.includes(position))) {
    return { ...s, status: o.status, dead_heat: null, status_reason: o.reason, result_source: 'manual' };
  }
  // a foreign selection (MTS mixed combo) is resulted by the partner alone, never by the feed
  if (s.foreign_id) {
    const f = opts.foreign?.get(foreignKey(s.bet_id, s.foreign_id));
    return f ? { ...s, status: f.status, dead_heat: null, status_reason: f.reason } : s;
  }
  if (s.result_source === 'manual' && !opts.reinstate) return s;
  let caught: RollbackRow | undefined;
  for (const rb of rollbacks) if (rollbackCatches(rb, bet.row, s)) caught = rb;
  if (caught) return rolledBack(s, caught.reason);
  const r = results.get(resultKey(s.sport_event_id, s.market_id, s.odd_id)) ?? NOT_RESULTED;
  return { ...s, status: r.status, dead_heat: r.deadHeat, status_reason: r.reason, result_source: 'feed' };
}

/**
 * Recomputes bets from scratch in one transaction (docs/adr/0008-settlement.md "Sweep" and "Operator actions"):
 * each selection takes the operator's result if one was set, else the result of a rollback that catches it, else
 * the stored result of its odd; then the bet is settled, unsettled or resettled as needed — or left alone when
 * nothing differs. Bets outside accepted / settled / unsettled are not touched.
 */
export async function refreshBets(
  deps: SettlementDeps,
  betIds: readonly string[],
  opts: RefreshOptions,
): Promise<Applied & { bets: Bet[] }> {
  const limits = await prefetchLimits(deps, await betOwners(deps.database.db, betIds));
  const out = await inTransaction(deps.database.db, (tx) => refreshBetsIn(tx, deps, betIds, opts, limits));
  afterCommit(deps, out);
  return out;
}

/**
 * {@link refreshBets} inside the caller's transaction `tx`, with the settlement caps already read
 * (`prefetchLimits`); the caller runs `afterCommit` once `tx` committed.
 */
export async function refreshBetsIn(
  tx: Executor,
  deps: SettlementDeps,
  betIds: readonly string[],
  opts: RefreshOptions,
  limits: Awaited<ReturnType<typeof prefetchLimits>>,
): Promise<Applied & { bets: Bet[] }> {
  await opts.fence?.(tx);
  const bets = await lockBets(tx, betIds);
  for (const b of bets) opts.check?.(b);
  const open = bets.filter((b) => OPEN_STATES.includes(b.row.state));
  const sels = open.flatMap((b) => [...b.selections, ...b.builders.flatMap((x) => x.legs)]);
  const results = await loadResultsFor(
    tx,
    sels.map((s) => ({ eventId: s.sport_event_id, marketId: s.market_id, oddId: s.odd_id })),
  );
  const rollbacks = await rollbacksFor(
    tx,
    sels.map((s) => s.sport_event_id),
  );
  const updates: ResultUpdate[] = open.map((bet) => ({
    bet,
    selections: bet.selections.map((s) => target(s, bet, results, rollbacks, opts)),
    builderLegs: bet.builders.map((b, k) =>
      b.legs.map((s) => target(s, bet, results, rollbacks, opts, bet.selections.length + k)),
    ),
  }));
  const applied = await applyResults(tx, updates, {
    cause: opts.cause,
    at: new Date(deps.clock.now()),
    limits,
    currentEvent: deps.currentEvent,
  });
  const changed = new Map(applied.changed.map((b) => [b.row.id, b]));
  if (opts.audit) {
    const facts = (b: Bet) => ({ state: b.row.state, settle_amount: b.row.settle_amount });
    for (const b of bets) {
      await insertAudit(tx, {
        at: new Date(deps.clock.now()),
        actor: opts.audit.actor,
        action: opts.audit.action,
        subject: `bet:${b.row.id}`,
        details: JSON.stringify({
          ...opts.audit.details,
          before: facts(b),
          after: facts(changed.get(b.row.id) ?? b),
        }),
      });
    }
  }
  return { ...applied, bets: bets.map((b) => changed.get(b.row.id) ?? b) };
}
