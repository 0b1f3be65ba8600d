import { type BetState, type BetTransition, DomainError, transition } from '@bookie/core';
import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { BetRow } from './bet.js';

/**
 * The statements that change a bet's state. Each one first asks {@link checkTransition} for every change it makes,
 * so a change core's table of bet states does not allow never reaches the database (docs/adr/0038-bet-owner.md).
 */

const watchers = new Set<(t: BetTransition) => void>();

/**
 * Calls `watch` with every bet state change the repository checks, until the returned function is called (tests
 * walk the changes the code performs against core's table with it).
 */
export function watchBetTransitions(watch: (t: BetTransition) => void): () => void {
  watchers.add(watch);
  return () => watchers.delete(watch);
}

/**
 * The one check of a bet's state change: core's {@link transition} (pure, no I/O), in the transaction that writes
 * the change.
 *
 * @throws DomainError `conflict` naming both states when core's table has no such change.
 */
export function checkTransition(from: BetState, to: BetState): BetTransition {
  const t = transition(from, to);
  for (const watch of watchers) watch(t);
  return t;
}

/** Column changes of a bet's transition. */
export type BetChanges = Partial<{
  restrictions: unknown[];
  decidedAt: Date;
  totalOdds: string;
  baseOdds: string;
}>;

/**
 * Moves a bet from `from` to `to` with the given column changes; returns the updated row, or undefined when the
 * bet was no longer in `from` (another process or the recovery job decided it first).
 *
 * @throws DomainError `conflict` when core's table has no change from `from` to `to`.
 */
export async function transitionBet(
  tx: Executor,
  id: string,
  from: BetState,
  to: BetState,
  changes: BetChanges = {},
): Promise<BetRow | undefined> {
  return (await transitionBets(tx, from, to, [{ id, ...changes }]))[0];
}

/**
 * Moves bets from `from` to `to`, each with its own column changes (a change left out keeps the column), in one
 * statement; returns the updated rows — a bet no longer in `from` (decided elsewhere first) is not among them.
 *
 * @throws DomainError `conflict` when core's table has no change from `from` to `to`.
 */
export async function transitionBets(
  tx: Executor,
  from: BetState,
  to: BetState,
  items: ReadonlyArray<BetChanges & { id: string }>,
): Promise<BetRow[]> {
  if (items.length === 0) return [];
  checkTransition(from, to);
  const res = await sql<BetRow>`
    UPDATE bet SET state = ${to}, updated_at = now(),
      restrictions = coalesce(v.restrictions, bet.restrictions),
      decided_at = coalesce(v.decided_at, bet.decided_at),
      total_odds = coalesce(v.total_odds, bet.total_odds),
      base_odds = coalesce(v.base_odds, bet.base_odds)
    FROM unnest(${items.map((i) => i.id)}::uuid[],
      ${items.map((i) => (i.restrictions ? JSON.stringify(i.restrictions) : null))}::jsonb[],
      ${items.map((i) => i.decidedAt ?? null)}::timestamptz[],
      ${items.map((i) => i.totalOdds ?? null)}::numeric[],
      ${items.map((i) => i.baseOdds ?? null)}::numeric[]) AS v(id, restrictions, decided_at, total_odds, base_odds)
    WHERE bet.id = v.id AND bet.state = ${from}
    RETURNING bet.*`.execute(tx);
  return res.rows;
}

/**
 * A bet's new settlement state: `kind` is what settlement decided on a bet in `from` — settle (→ settled),
 * unsettle (→ unsettled), or resettle (settled → unsettled → settled, written as one row).
 */
export type BetSettlementState = Pick<
  BetRow,
  'id' | 'state' | 'payout' | 'settle_amount' | 'settle_type' | 'settle_status' | 'settlement_seq'
> & { settled_at: Date | null; from: BetState; kind: 'settle' | 'unsettle' | 'resettle' };

/**
 * Writes bets' settlement state (one statement), each change checked against core's table first (a resettle as
 * its two steps).
 *
 * @throws DomainError `conflict` when a change is not in core's table, or `state` is not where `kind` leads.
 */
export async function writeSettlementStates(
  tx: Executor,
  rows: readonly BetSettlementState[],
): Promise<void> {
  if (rows.length === 0) return;
  for (const r of rows) {
    const to = r.kind === 'unsettle' ? 'unsettled' : 'settled';
    if (r.state !== to) {
      throw new DomainError('conflict', `bet ${r.id}: a ${r.kind} leads to ${to}, not ${r.state}`, {
        from: r.from,
        to,
      });
    }
    if (r.kind === 'resettle') {
      checkTransition(r.from, 'unsettled');
      checkTransition('unsettled', 'settled');
    } else checkTransition(r.from, to);
  }
  await sql`update bet b set state = v.state, payout = v.payout::numeric, settle_amount = v.settle_amount::numeric,
      settle_type = v.settle_type, settle_status = v.settle_status, settled_at = v.settled_at::timestamptz,
      settlement_seq = v.seq, updated_at = now()
    from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.state)}::text[],
                ${rows.map((r) => r.payout)}::text[], ${rows.map((r) => r.settle_amount)}::text[],
                ${rows.map((r) => r.settle_type)}::int2[], ${rows.map((r) => r.settle_status)}::int2[],
                ${rows.map((r) => r.settled_at?.toISOString() ?? null)}::text[], ${rows.map((r) => r.settlement_seq)}::int4[])
      as v(id, state, payout, settle_amount, settle_type, settle_status, settled_at, seq)
    where b.id = v.id`.execute(tx);
}

/**
 * Sets the bet's cashed-out part of the stake and what the player received for it (Σ amount and Σ refund_amount of
 * its accepted orders, decimal strings) and, when `move` is given, its state (the exposure trigger follows the
 * state). The caller holds the bet's lock, so `move.from` is its state.
 *
 * @throws DomainError `conflict` when core's table has no change from `move.from` to `move.to`.
 */
export async function setCashedOut(
  tx: Executor,
  betId: string,
  cashedOut: { stake: string; refund: string },
  move: { from: BetState; to: 'accepted' | 'cashed_out' } | undefined,
  at: Date,
): Promise<void> {
  if (move) checkTransition(move.from, move.to);
  await tx
    .updateTable('bet')
    .set({
      cashed_out_stake: cashedOut.stake,
      cashed_out_refund: cashedOut.refund,
      updated_at: at,
      ...(move ? { state: move.to } : {}),
    })
    .where('id', '=', betId)
    .execute();
}
