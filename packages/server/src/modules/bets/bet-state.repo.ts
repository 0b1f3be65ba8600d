import {
  type BetCreation,
  type BetSource,
  type BetState,
  type BetTransition,
  creation,
  DomainError,
  transition,
} from '@bookie/core';
import { CompiledQuery, sql } from 'kysely';
import { pgArray } from '../../db/pg-array.js';
import type { Executor } from '../../db/transaction.js';
import type { BetRow } from './bet.js';

/**
 * The statements that change a bet's state. Each one first asks {@link checkTransition} for every change it makes,
 * so a change core's table of bet states does not allow never reaches the database (docs/adr/0038-bet-owner.md); the
 * inserts of bet-writes.repo.ts ask {@link checkCreation} for the state each bet is created in.
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

const creationWatchers = new Set<(c: BetCreation) => void>();

/**
 * Calls `watch` with every bet creation the repository checks, until the returned function is called (tests walk
 * the ways the code creates bets against core's table with it).
 */
export function watchBetCreations(watch: (c: BetCreation) => void): () => void {
  creationWatchers.add(watch);
  return () => creationWatchers.delete(watch);
}

/**
 * The one check of the state a bet is created in: core's {@link creation} (pure, no I/O), before the insert.
 *
 * @throws DomainError `conflict` naming the source and the state when core's table has no such creation.
 */
export function checkCreation(source: BetSource, state: BetState): BetCreation {
  const c = creation(source, state);
  for (const watch of creationWatchers) watch(c);
  return c;
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

/** The statement of {@link transitionBets}: one text whatever the number of bets (arrays), prepared once. */
const transitionSql = (returning: string) => `
    UPDATE bet SET state = $1, updated_at = now(),
      restrictions = coalesce(v.restrictions, bet.restrictions),
      decided_at = coalesce(v.decided_at, bet.decided_at),
      total_odds = coalesce(v.total_odds, bet.total_odds),
      base_odds = coalesce(v.base_odds, bet.base_odds)
    FROM unnest($3::uuid[], $4::jsonb[], $5::timestamptz[], $6::numeric[], $7::numeric[])
      AS v(id, restrictions, decided_at, total_odds, base_odds)
    WHERE bet.id = v.id AND bet.state = $2
    RETURNING ${returning}`;
const TRANSITION_ALL = transitionSql('bet.*');
/** With the rows as read: only what the statement sets and the caller cannot know (numerics as stored, the time). */
const TRANSITION_CHANGED = transitionSql('bet.id, bet.updated_at, bet.total_odds, bet.base_odds');

/**
 * Moves bets from `from` to `to`, each with its own column changes (a change left out keeps the column), in one
 * statement; returns the updated rows — a bet no longer in `from` (decided elsewhere first) is not among them. When
 * every item carries its bet's `row` as read, the statement returns only the columns it changed and the rows are
 * that `row` with the changes (no wide row read back and parsed).
 *
 * @throws DomainError `conflict` when core's table has no change from `from` to `to`.
 */
export async function transitionBets(
  tx: Executor,
  from: BetState,
  to: BetState,
  items: ReadonlyArray<BetChanges & { id: string; row?: BetRow }>,
): Promise<BetRow[]> {
  if (items.length === 0) return [];
  checkTransition(from, to);
  const ids: string[] = [];
  const restrictions: Array<string | null> = [];
  const decidedAt: Array<Date | null> = [];
  const totalOdds: Array<string | null> = [];
  const baseOdds: Array<string | null> = [];
  let narrow = true;
  for (const i of items) {
    ids.push(i.id);
    restrictions.push(i.restrictions ? JSON.stringify(i.restrictions) : null);
    decidedAt.push(i.decidedAt ?? null);
    totalOdds.push(i.totalOdds ?? null);
    baseOdds.push(i.baseOdds ?? null);
    if (!i.row) narrow = false;
  }
  const params = [
    to,
    from,
    pgArray(ids),
    pgArray(restrictions),
    pgArray(decidedAt),
    pgArray(totalOdds),
    pgArray(baseOdds),
  ];
  if (!narrow) {
    return (await tx.executeQuery<BetRow>(CompiledQuery.raw(TRANSITION_ALL, params))).rows;
  }
  const res = await tx.executeQuery<Pick<BetRow, 'id' | 'updated_at' | 'total_odds' | 'base_odds'>>(
    CompiledQuery.raw(TRANSITION_CHANGED, params),
  );
  const byId = new Map(items.map((i) => [i.id, i]));
  return res.rows.map((r) => {
    const i = byId.get(r.id) as BetChanges & { id: string; row: BetRow };
    return {
      ...i.row,
      state: to,
      updated_at: r.updated_at,
      total_odds: r.total_odds,
      base_odds: r.base_odds,
      ...(i.restrictions ? { restrictions: JSON.parse(JSON.stringify(i.restrictions)) as unknown[] } : {}),
      ...(i.decidedAt ? { decided_at: i.decidedAt } : {}),
    };
  });
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
