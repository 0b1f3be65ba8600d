/**
 * The only SQL of the wallet's ledger: accounts, bets and ledger rows (ARCHITECTURE "Inside the server": one repo per
 * module). Every function takes the executor it runs on: the callback's transaction, or a deposit's own.
 *
 * @packageDocumentation
 */
import type { Executor } from '@bookie/storage';
import { sql } from 'kysely';
import type { BetState, BetTable, LedgerKind, WalletDB } from '../db/schema.js';

/** The executor of the wallet database (Kysely or an open transaction). */
export type WalletExecutor = Executor<WalletDB>;

/** A balance: available and held, in micro-units. */
export interface Balance {
  available: bigint;
  held: bigint;
}

/** Creates the account if missing and locks it for the rest of the transaction (`FOR UPDATE`). */
export async function lockAccount(db: WalletExecutor, playerId: string, currency: string): Promise<Balance> {
  await db
    .insertInto('accounts')
    .values({ player_id: playerId, currency, available: 0n, held: 0n })
    .onConflict((oc) => oc.columns(['player_id', 'currency']).doNothing())
    .execute();
  return db
    .selectFrom('accounts')
    .select(['available', 'held'])
    .where('player_id', '=', playerId)
    .where('currency', '=', currency)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** One money movement to record. `amount` is in micro-units, > 0. */
export interface Movement {
  playerId: string;
  currency: string;
  kind: LedgerKind;
  reason: string;
  amount: bigint;
  betId?: string | null;
  ref?: string | null;
  requestId?: string | null;
}

/** How each kind changes available and held. */
const DELTAS: Record<LedgerKind, (a: bigint) => Balance> = {
  deposit: (a) => ({ available: a, held: 0n }),
  credit: (a) => ({ available: a, held: 0n }),
  debit: (a) => ({ available: -a, held: 0n }),
  hold: (a) => ({ available: -a, held: a }),
  release: (a) => ({ available: a, held: -a }),
  capture: (a) => ({ available: 0n, held: -a }),
};

/**
 * Applies a movement to the account (created if missing) and appends its ledger row, in the caller's transaction.
 * An amount of 0 moves nothing and writes no row.
 *
 * @returns the balance after the movement.
 */
export async function applyMovement(db: WalletExecutor, m: Movement): Promise<Balance> {
  if (m.amount < 0n) throw new RangeError(`movement amount must not be negative: ${m.amount}`);
  if (m.amount === 0n) return lockAccount(db, m.playerId, m.currency);
  const d = DELTAS[m.kind](m.amount);
  // make sure the account exists, then move (an upsert would check `held >= 0` on the proposed insert row)
  await db
    .insertInto('accounts')
    .values({ player_id: m.playerId, currency: m.currency, available: 0n, held: 0n })
    .onConflict((oc) => oc.columns(['player_id', 'currency']).doNothing())
    .execute();
  const after = await db
    .updateTable('accounts')
    .set({
      available: sql<bigint>`available + ${d.available}`,
      held: sql<bigint>`held + ${d.held}`,
      updated_at: sql<Date>`now()`,
    })
    .where('player_id', '=', m.playerId)
    .where('currency', '=', m.currency)
    .returning(['available', 'held'])
    .executeTakeFirstOrThrow();
  await db
    .insertInto('ledger')
    .values({
      player_id: m.playerId,
      currency: m.currency,
      kind: m.kind,
      reason: m.reason,
      amount: m.amount,
      bet_id: m.betId ?? null,
      ref: m.ref ?? null,
      request_id: m.requestId ?? null,
      available_after: after.available,
      held_after: after.held,
    })
    .execute();
  return after;
}

/** The wallet's record of a bet. */
export type BetRow = Pick<
  BetTable,
  'bet_id' | 'player_id' | 'currency' | 'stake' | 'freebet' | 'state' | 'settled'
>;

/** Reads a bet and locks it for the rest of the transaction, or undefined. */
export async function lockBet(db: WalletExecutor, betId: string): Promise<BetRow | undefined> {
  return db
    .selectFrom('bets')
    .select(['bet_id', 'player_id', 'currency', 'stake', 'freebet', 'state', 'settled'])
    .where('bet_id', '=', betId)
    .forUpdate()
    .executeTakeFirst();
}

/** Records a new bet. */
export async function insertBet(db: WalletExecutor, bet: BetRow): Promise<void> {
  await db.insertInto('bets').values(bet).execute();
}

/** Moves a bet to `state` (and sets its net settled amount when given). */
export async function updateBet(
  db: WalletExecutor,
  betId: string,
  state: BetState,
  settled?: bigint,
): Promise<void> {
  await db
    .updateTable('bets')
    .set({ state, updated_at: sql<Date>`now()`, ...(settled === undefined ? {} : { settled }) })
    .where('bet_id', '=', betId)
    .execute();
}

/** True when a ledger row with this (kind, reason, ref) exists: a once-only movement already happened. */
export async function movementExists(
  db: WalletExecutor,
  kind: LedgerKind,
  reason: string,
  ref: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('ledger')
    .select('id')
    .where('kind', '=', kind)
    .where('reason', '=', reason)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return row !== undefined;
}

/** Balances of a player, per currency, ordered by currency. */
export async function playerBalances(
  db: WalletExecutor,
  playerId: string,
): Promise<{ currency: string; available: bigint; held: bigint }[]> {
  return db
    .selectFrom('accounts')
    .select(['currency', 'available', 'held'])
    .where('player_id', '=', playerId)
    .orderBy('currency')
    .execute();
}

/** Ledger rows of a player, oldest first. */
export async function playerLedger(db: WalletExecutor, playerId: string, limit = 1000) {
  return db
    .selectFrom('ledger')
    .select([
      'id',
      'currency',
      'kind',
      'reason',
      'amount',
      'bet_id',
      'ref',
      'request_id',
      'available_after',
      'held_after',
      'at',
    ])
    .where('player_id', '=', playerId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Per account: the balance and the ledger sums by kind (micro-units), for the invariant check. */
export async function accountTotals(db: WalletExecutor, playerId?: string) {
  let q = db
    .selectFrom('accounts as a')
    .leftJoin('ledger as l', (j) =>
      j.onRef('l.player_id', '=', 'a.player_id').onRef('l.currency', '=', 'a.currency'),
    )
    .select([
      'a.player_id',
      'a.currency',
      'a.available',
      'a.held',
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'deposit'), 0)::text`.as('deposited'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'hold'), 0)::text`.as('holds'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'release'), 0)::text`.as('released'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'capture'), 0)::text`.as('captured'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'credit'), 0)::text`.as('credited'),
      sql<string>`coalesce(sum(l.amount) filter (where l.kind = 'debit'), 0)::text`.as('debited'),
    ])
    .groupBy(['a.player_id', 'a.currency', 'a.available', 'a.held'])
    .orderBy('a.player_id')
    .orderBy('a.currency');
  if (playerId !== undefined) q = q.where('a.player_id', '=', playerId);
  return q.execute();
}
