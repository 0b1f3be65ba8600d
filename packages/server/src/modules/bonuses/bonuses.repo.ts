import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { BetBoostTable, DB, FreebetTable, InsuranceTable } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';

/** A freebet row as stored. */
export type FreebetRow = Selectable<FreebetTable>;
/** An insurance row as stored. */
export type InsuranceRow = Selectable<InsuranceTable>;
/** A bet boost row as stored. */
export type BetBoostRow = Selectable<BetBoostTable>;

/** The bonus tables with the same list and idempotency columns. */
export type BonusTable = 'freebet' | 'insurance' | 'bet_boost';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` can be a bonus id (a UUID); anything else is simply not found. */
export function isBonusId(id: string | null | undefined): id is string {
  return typeof id === 'string' && UUID.test(id);
}

/** A keyset position in a list (newest first). */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

/** Inserts a row of a bonus table unless its idempotence_id is taken; returns whether it was inserted. */
async function insertBonus<T extends BonusTable>(
  db: Executor,
  table: T,
  row: Insertable<DB[T]>,
): Promise<boolean> {
  // the three tables share the idempotency columns; the statement is typed on one of them
  const r = await db
    .insertInto(table as 'freebet')
    .values(row as Insertable<FreebetTable>)
    .onConflict((oc) =>
      oc.columns(['white_label_id', 'idempotence_id']).where('idempotence_id', 'is not', null).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** One row of a bonus table of a white label (undefined for another white label's: isolation), locked if asked. */
async function findBonus<T extends BonusTable>(
  db: Executor,
  table: T,
  whiteLabelId: string,
  id: string,
  lock: boolean,
): Promise<Selectable<DB[T]> | undefined> {
  if (!isBonusId(id)) return undefined;
  let q = db
    .selectFrom(table as 'freebet')
    .selectAll()
    .where('id', '=', id)
    .where('white_label_id', '=', whiteLabelId);
  if (lock) q = q.forUpdate();
  return (await q.executeTakeFirst()) as Selectable<DB[T]> | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Freebets
// ---------------------------------------------------------------------------------------------------------------

/** Inserts a freebet unless its idempotence_id is taken; returns whether it was inserted. */
export function insertFreebet(db: Executor, row: Insertable<FreebetTable>): Promise<boolean> {
  return insertBonus(db, 'freebet', row);
}

/** One freebet of a white label (undefined for another white label's: isolation). */
export function findFreebet(
  db: Executor,
  whiteLabelId: string,
  id: string,
  lock = false,
): Promise<FreebetRow | undefined> {
  return findBonus(db, 'freebet', whiteLabelId, id, lock);
}

/** Changes a freebet's columns. */
export async function updateFreebet(db: Executor, id: string, set: Updateable<FreebetTable>): Promise<void> {
  await db.updateTable('freebet').set(set).where('id', '=', id).execute();
}

/**
 * available → reserved for `betId`, only if the freebet is the player's, available and not expired (one atomic
 * conditional update: of two concurrent bets, exactly one reserves it). Returns whether it was reserved.
 */
export async function reserveFreebet(
  tx: Executor,
  f: { id: string; whiteLabelId: string; playerId: string; betId: string; now: Date },
): Promise<boolean> {
  const r = await tx
    .updateTable('freebet')
    .set({ status: 'reserved', bet_id: f.betId, reserved_at: f.now, updated_at: f.now })
    .where('id', '=', f.id)
    .where('white_label_id', '=', f.whiteLabelId)
    .where('player_id', '=', f.playerId)
    .where('status', '=', 'available')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', f.now)]))
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** reserved → available: the freebet of a bet that was not accepted (spec 01: "balance unchanged"). */
export async function releaseFreebet(tx: Executor, betId: string, now: Date): Promise<number> {
  const r = await tx
    .updateTable('freebet')
    .set({ status: 'available', bet_id: null, reserved_at: null, updated_at: now })
    .where('bet_id', '=', betId)
    .where('status', '=', 'reserved')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** reserved → used: the freebet of a bet that was settled (win, loss or void alike). */
export async function useFreebet(tx: Executor, betId: string, now: Date): Promise<number> {
  const r = await tx
    .updateTable('freebet')
    .set({ status: 'used', used_at: now, updated_at: now })
    .where('bet_id', '=', betId)
    .where('status', '=', 'reserved')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

// ---------------------------------------------------------------------------------------------------------------
// Insurance
// ---------------------------------------------------------------------------------------------------------------

/** Inserts an insurance unless its idempotence_id is taken; returns whether it was inserted. */
export function insertInsurance(db: Executor, row: Insertable<InsuranceTable>): Promise<boolean> {
  return insertBonus(db, 'insurance', row);
}

/** One insurance of a white label (undefined for another white label's). */
export function findInsurance(
  db: Executor,
  whiteLabelId: string,
  id: string,
  lock = false,
): Promise<InsuranceRow | undefined> {
  return findBonus(db, 'insurance', whiteLabelId, id, lock);
}

/** The insurance applied to a bet, locked. */
export async function insuranceOfBet(tx: Executor, betId: string): Promise<InsuranceRow | undefined> {
  return tx.selectFrom('insurance').selectAll().where('bet_id', '=', betId).forUpdate().executeTakeFirst();
}

/** Changes an insurance's columns. */
export async function updateInsurance(
  db: Executor,
  id: string,
  set: Updateable<InsuranceTable>,
): Promise<void> {
  await db.updateTable('insurance').set(set).where('id', '=', id).execute();
}

/**
 * available → applied to `betId` (its bet is being accepted), only if the insurance is the player's, available and
 * not expired: one atomic conditional update. Returns whether it was applied.
 */
export async function applyInsurance(
  tx: Executor,
  i: { id: string; whiteLabelId: string; playerId: string; betId: string; now: Date },
): Promise<boolean> {
  const r = await tx
    .updateTable('insurance')
    .set({ status: 'applied', bet_id: i.betId, applied_at: i.now, updated_at: i.now })
    .where('id', '=', i.id)
    .where('white_label_id', '=', i.whiteLabelId)
    .where('player_id', '=', i.playerId)
    .where('status', '=', 'available')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', i.now)]))
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** One open item of an insurance refund for the operator (see `openItemOf`), with its bet and white label. */
export interface InsuranceOpenItemRow {
  insurance_id: string;
  white_label_id: string;
  bet_id: string;
  player_id: string;
  currency_code: string;
  kind: 'refund_kept_not_earned' | 'refund_not_paid';
  amount: string;
  since: Date;
}

/**
 * The open items of insurance refunds, newest first (the same rule as `openItemOf`: a kept refund the latest result
 * does not earn, an earned refund that was not paid); of one white label when given.
 */
export async function listInsuranceOpenItems(
  db: Executor,
  f: { whiteLabelId?: string | undefined; limit: number },
): Promise<InsuranceOpenItemRow[]> {
  const r = await sql<InsuranceOpenItemRow>`
    SELECT id AS insurance_id, white_label_id, bet_id, player_id, currency_code,
      CASE refund_state WHEN 'kept' THEN 'refund_kept_not_earned' ELSE 'refund_not_paid' END AS kind,
      refund_amount::text AS amount, updated_at AS since
    FROM insurance
    WHERE ((refund_state = 'kept' AND earned = false) OR (refund_state = 'not_paid' AND earned = true))
      ${f.whiteLabelId !== undefined ? sql`AND white_label_id = ${f.whiteLabelId}` : sql``}
    ORDER BY updated_at DESC, id DESC
    LIMIT ${f.limit}`.execute(db);
  return r.rows.map((x) => ({ ...x, since: new Date(x.since) }));
}

/** The number of open items of insurance refunds per white label and kind (for /metrics). */
export async function countInsuranceOpenItems(
  db: Executor,
): Promise<Array<{ whiteLabelId: string; kind: string; count: number }>> {
  const r = await sql<{ white_label_id: string; kind: string; n: string }>`
    SELECT white_label_id,
      CASE refund_state WHEN 'kept' THEN 'refund_kept_not_earned' ELSE 'refund_not_paid' END AS kind,
      count(*)::text AS n
    FROM insurance
    WHERE (refund_state = 'kept' AND earned = false) OR (refund_state = 'not_paid' AND earned = true)
    GROUP BY 1, 2`.execute(db);
  return r.rows.map((x) => ({ whiteLabelId: x.white_label_id, kind: x.kind, count: Number(x.n) }));
}

/** The insurance of a bet by its id, locked (a callback's `bet_insurance_id`). */
export async function lockInsurance(tx: Executor, id: string): Promise<InsuranceRow | undefined> {
  if (!isBonusId(id)) return undefined;
  return tx.selectFrom('insurance').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** applied → available: the insurance claimed by a bet whose acceptance did not go through. */
export async function unapplyInsurance(tx: Executor, betId: string, now: Date): Promise<number> {
  const r = await tx
    .updateTable('insurance')
    .set({ status: 'available', bet_id: null, applied_at: null, updated_at: now })
    .where('bet_id', '=', betId)
    .where('status', '=', 'applied')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

// ---------------------------------------------------------------------------------------------------------------
// Bet boosts
// ---------------------------------------------------------------------------------------------------------------

/** Inserts a bet boost unless its idempotence_id is taken; returns whether it was inserted. */
export function insertBetBoost(db: Executor, row: Insertable<BetBoostTable>): Promise<boolean> {
  return insertBonus(db, 'bet_boost', row);
}

/** One bet boost of a white label (undefined for another white label's). */
export function findBetBoost(
  db: Executor,
  whiteLabelId: string,
  id: string,
): Promise<BetBoostRow | undefined> {
  return findBonus(db, 'bet_boost', whiteLabelId, id, false);
}

/**
 * Takes one unit of a boost for `betId` (the bet is being created): remaining_quantity − 1 when the boost is the
 * white label's, for this player (or every player), not cancelled, not expired and not exhausted — one atomic conditional update —
 * and records the use as reserved. Returns the multiplier, or undefined when the boost could not be taken.
 */
export async function reserveBoost(
  tx: Executor,
  b: { id: string; whiteLabelId: string; playerId: string; betId: string; now: Date },
): Promise<string | undefined> {
  const r = await tx
    .updateTable('bet_boost')
    .set({ remaining_quantity: sql`remaining_quantity - 1`, updated_at: b.now })
    .where('id', '=', b.id)
    .where('white_label_id', '=', b.whiteLabelId)
    .where((eb) => eb.or([eb('player_id', 'is', null), eb('player_id', '=', b.playerId)]))
    .where('remaining_quantity', '>', 0)
    .where('cancelled_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', b.now)]))
    .returning('multiplier')
    .executeTakeFirst();
  if (!r) return undefined;
  await tx
    .insertInto('bet_boost_use')
    .values({ bet_id: b.betId, boost_id: b.id, state: 'reserved', created_at: b.now, updated_at: b.now })
    .execute();
  return r.multiplier;
}

/** Cancels a boost (once: a cancelled boost keeps its first cancellation time). */
export async function cancelBetBoostRow(tx: Executor, id: string, now: Date): Promise<void> {
  await tx
    .updateTable('bet_boost')
    .set({ cancelled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .execute();
}

/** The boost use of a bet. */
export async function boostUseOf(db: Executor, betId: string) {
  return db.selectFrom('bet_boost_use').selectAll().where('bet_id', '=', betId).executeTakeFirst();
}

/** reserved → used: the bet that took the boost was accepted. */
export async function useBoost(tx: Executor, betId: string, now: Date): Promise<void> {
  await tx
    .updateTable('bet_boost_use')
    .set({ state: 'used', updated_at: now })
    .where('bet_id', '=', betId)
    .where('state', '=', 'reserved')
    .execute();
}

/** reserved → released, and the unit back to remaining_quantity: the bet was not accepted. */
export async function releaseBoost(tx: Executor, betId: string, now: Date): Promise<number> {
  const r = await tx
    .updateTable('bet_boost_use')
    .set({ state: 'released', updated_at: now })
    .where('bet_id', '=', betId)
    .where('state', '=', 'reserved')
    .returning('boost_id')
    .executeTakeFirst();
  if (!r) return 0;
  await tx
    .updateTable('bet_boost')
    .set({ remaining_quantity: sql`remaining_quantity + 1`, updated_at: now })
    .where('id', '=', r.boost_id)
    .execute();
  return 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared
// ---------------------------------------------------------------------------------------------------------------

/** The record a white label created with an idempotence_id. */
export async function findByIdempotenceId<T extends BonusTable>(
  db: Executor,
  table: T,
  whiteLabelId: string,
  idempotenceId: string,
): Promise<{ id: string; request_hash: string | null } | undefined> {
  const r = await sql<{ id: string; request_hash: string | null }>`
    SELECT id, request_hash FROM ${sql.table(table)}
    WHERE white_label_id = ${whiteLabelId} AND idempotence_id = ${idempotenceId}`.execute(db);
  return r.rows[0];
}

/** Filters of a list. */
export interface ListFilter {
  whiteLabelId: string;
  playerId?: string;
  /** A stored status (the caller maps `expired`). */
  statuses?: readonly string[];
  /** Only rows with expires_at ≤ `expiredAt` (true) or not (false) at this instant. */
  expired?: { at: Date; value: boolean };
  after?: ListPosition;
  limit: number;
}

/** A page of a bonus table, newest first (keyset on created_at, id). `statuses` applies to freebets and insurances. */
export async function listBonuses<T extends BonusTable>(
  db: Executor,
  table: T,
  f: ListFilter,
): Promise<Array<Selectable<DB[T]>>> {
  // the three tables share the list columns; the query is typed on one of them
  let q = db
    .selectFrom(table as 'freebet')
    .selectAll()
    .where('white_label_id', '=', f.whiteLabelId);
  if (f.playerId !== undefined) q = q.where('player_id', '=', f.playerId);
  if (f.statuses) q = q.where('status', 'in', f.statuses as FreebetRow['status'][]);
  if (f.expired) {
    const { at, value } = f.expired;
    q = value
      ? q.where('expires_at', '<=', at)
      : q.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]));
  }
  if (f.after) {
    const a = f.after;
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', a.createdAt),
        eb.and([eb('created_at', '=', a.createdAt), eb('id', '<', a.id)]),
      ]),
    );
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
  return rows as unknown as Array<Selectable<DB[T]>>;
}

/** An audit row of a partner's change to a bonus (who, what, on what), in the change's transaction. */
export async function auditBonus(
  tx: Executor,
  row: { at: Date; actor: string; action: string; subject: string; details: Record<string, unknown> },
): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({ ...row, details: JSON.stringify(row.details) })
    .execute();
}
