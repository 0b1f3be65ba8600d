import type { SportEvent } from '@bookie/contracts';
import type { Executor } from '../../../db/transaction.js';
import {
  type Bet,
  type BetBuilder,
  type BetSettlementState,
  type BuilderChange,
  type SelectionChange,
  type SelectionRow,
  toBetView,
  writeBuilderResults,
  writeSelectionResults,
  writeSettlementStates,
} from '../../bets/index.js';
// bonuses: freebet used, insurance paid / declined / cancelled, in the same transaction
import { type BetSettlementChange, onBetsSettled } from '../../bonuses/index.js';
import { lockBetOutcomes, onBetsSettledForRisk } from '../../risk/index.js';
import { limitsKey, type SettlementDeps } from '../deps.js';
import { noMoneyMoves, recordMoneyMoves } from '../ledger/money-moves.js';
import { builderResultChanged, builderWithLegs } from './builders.js';
import { decideTransition, type SettlementLimits, type Transition } from './decide.js';
import { settle } from './settle.js';
import { type MoveContext, unsettle } from './unsettle.js';

/** A locked bet and the results its selections must show now. */
export interface ResultUpdate {
  /** The bet as stored, locked in this transaction. */
  bet: Bet;
  /** Its selections in bet order, with their new status, dead heat, reason and source. */
  selections: SelectionRow[];
  /**
   * Its builders' inner legs with their new results, by builder (in the bet's builder order); absent: the builders'
   * legs keep their results. Each builder's own result is recomputed from them (D63).
   */
  builderLegs?: SelectionRow[][];
}

/** Context of one batch. */
export interface ApplyContext {
  /** What caused it, kept in the ledger: `feed:<v>`, `rollback:<v>`, `sweep`, `operator:<action>`. */
  cause: string;
  /** The time written as settled_at and in the ledger. */
  at: Date;
  /** Caps per white label and currency (`limitsKey`), read before the transaction (`prefetchLimits`). */
  limits: ReadonlyMap<string, SettlementLimits>;
  /** The current snapshot of a sport event (the replica), so settle callbacks describe the event as it is now. */
  currentEvent?: ((sportEventId: string) => SportEvent | undefined) | undefined;
}

/** What a batch did. */
export interface Applied {
  /** Bets whose selections or state changed, as they are now. */
  changed: Bet[];
  /** Transitions by kind. */
  settled: number;
  unsettled: number;
  resettled: number;
  /** Callbacks enqueued. */
  callbacks: number;
}

/** Counts of an {@link Applied}, added up. */
export function addApplied(a: Applied, b: Applied): Applied {
  return {
    changed: [...a.changed, ...b.changed],
    settled: a.settled + b.settled,
    unsettled: a.unsettled + b.unsettled,
    resettled: a.resettled + b.resettled,
    callbacks: a.callbacks + b.callbacks,
  };
}

/** An empty {@link Applied}. */
export const NOTHING_APPLIED: Applied = Object.freeze({
  changed: [],
  settled: 0,
  unsettled: 0,
  resettled: 0,
  callbacks: 0,
}) as Applied;

function material(a: SelectionRow, b: SelectionRow): boolean {
  return a.status !== b.status || a.dead_heat !== b.dead_heat;
}

function differs(a: SelectionRow, b: SelectionRow): boolean {
  return material(a, b) || a.status_reason !== b.status_reason || a.result_source !== b.result_source;
}

/**
 * Writes new selection results and moves each bet as its results require (docs/adr/0008-settlement.md), inside
 * `tx`: the selections, the bet's state, the `/bet/settle` and `/bet/unsettle` callbacks in the outbox (in order:
 * an unsettle before the settle that follows it, D10, D12) and the ledger rows that mirror them — all in one
 * transaction. A bet whose recomputed settlement equals its current one is left alone (idempotent).
 */
export async function applyResults(
  tx: Executor,
  updates: readonly ResultUpdate[],
  ctx: ApplyContext,
): Promise<Applied> {
  const selectionChanges: SelectionChange[] = [];
  const builderChanges: BuilderChange[] = [];
  const states: BetSettlementState[] = [];
  const moves = noMoneyMoves();
  const changed: Bet[] = [];
  const out = { settled: 0, unsettled: 0, resettled: 0 };
  const bonusChanges: BetSettlementChange[] = []; // bonuses

  for (const { bet, selections, builderLegs } of updates) {
    const row = bet.row;
    let selChanged = false;
    let materialChange = false;
    const track = (before: SelectionRow | undefined, s: SelectionRow) => {
      if (!before || !differs(before, s)) return;
      selChanged = true;
      if (material(before, s)) materialChange = true;
      selectionChanges.push({
        betId: s.bet_id,
        idx: s.idx,
        status: s.status,
        deadHeat: s.dead_heat,
        reason: s.status_reason,
        source: s.result_source,
      });
    };
    selections.forEach((s, i) => {
      track(bet.selections[i], s);
    });
    // a builder's inner legs are selections too; the builder's own row follows them (D63)
    const builders: BetBuilder[] = bet.builders.map((b, k) => {
      const legs = builderLegs?.[k];
      if (!legs) return b;
      legs.forEach((s, i) => {
        track(b.legs[i], s);
      });
      const next = builderWithLegs(b, legs);
      if (builderResultChanged(b.row, next.row)) {
        selChanged = true;
        builderChanges.push({
          betId: next.row.bet_id,
          builder: next.row.builder,
          status: next.row.status,
          deadHeat: next.row.dead_heat,
          reason: next.row.status_reason,
          source: next.row.result_source,
        });
      }
      return next;
    });
    const limits = ctx.limits.get(limitsKey(row.white_label_id, row.currency));
    if (!limits) throw new Error(`settlement: no limits read for ${row.white_label_id}/${row.currency}`);
    const t: Transition = decideTransition(row, selections, materialChange, limits, builders);
    if (t.kind === 'none') {
      if (selChanged) changed.push({ ...bet, row, selections, builders });
      continue;
    }
    const next = { ...row };
    const after: Bet = { ...bet, row: next, selections, builders };
    const move: MoveContext = {
      betId: row.id,
      whiteLabelId: row.white_label_id,
      currency: row.currency,
      cause: ctx.cause,
      at: ctx.at,
    };
    // a resettlement is an unsettle, then a settle with the new result
    if (t.kind === 'unsettle' || t.kind === 'resettle') unsettle(bet, next, moves, move);
    if (t.kind === 'settle' || t.kind === 'resettle') settle(after, t.outcome, moves, move, ctx.currentEvent);
    bonusChanges.push({
      bet: after,
      unsettled: t.kind !== 'settle',
      settleType: t.kind === 'unsettle' ? undefined : t.outcome.settleType,
    }); // bonuses
    if (t.kind === 'settle') out.settled++;
    else if (t.kind === 'unsettle') out.unsettled++;
    else out.resettled++;
    states.push({
      id: next.id,
      from: row.state,
      kind: t.kind,
      state: next.state,
      payout: next.payout,
      settle_amount: next.settle_amount,
      settle_type: next.settle_type,
      settle_status: next.settle_status,
      settlement_seq: next.settlement_seq,
      settled_at: next.settled_at ? new Date(next.settled_at) : null,
    });
    changed.push(after);
  }

  await writeSelectionResults(tx, selectionChanges);
  await writeBuilderResults(tx, builderChanges);
  // the exposure locks of every outcome the page's state changes may move, in one ordered acquisition
  await lockBetOutcomes(
    tx,
    states.map((s) => s.id),
  );
  await writeSettlementStates(tx, states);
  const callbacks = await recordMoneyMoves(tx, moves);
  // bonuses: after the bets' own callbacks, so a bet's insurance callback follows its settle / unsettle
  const bonusCallbacks = await onBetsSettled(tx, bonusChanges, ctx.at);
  // the risk engine: players' closing-line values follow their settled bets (D40)
  await onBetsSettledForRisk(
    tx,
    bonusChanges.map((c) => ({ bet: c.bet, unsettled: c.unsettled, settled: c.settleType !== undefined })),
  );
  return { changed, ...out, callbacks: callbacks + bonusCallbacks };
}

/** After a batch commits: wakes the dispatcher and tells the players' live streams. */
export function afterCommit(deps: SettlementDeps, applied: Applied): void {
  if (applied.callbacks > 0) deps.kick();
  // the risk engine: settled and unsettled bets moved their outcomes' exposure (odds shading, D39)
  if (deps.exposureChanged && applied.changed.length > 0)
    deps.exposureChanged(
      applied.changed.flatMap((b) => [...b.selections, ...b.builders.flatMap((x) => x.legs)]),
    );
  if (applied.changed.length === 0 || !deps.betEvents.listening) return;
  for (const bet of applied.changed) {
    deps.betEvents.emit({
      whiteLabelId: bet.row.white_label_id,
      playerId: bet.row.player_id,
      bet: toBetView(bet),
    });
  }
}
