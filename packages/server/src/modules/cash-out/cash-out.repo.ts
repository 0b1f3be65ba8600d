import { type ExpressionBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { Bet, BetRow, SelectionRow } from '../bets/bet.js';

/**
 * What a cash-out value reads of a bet: the bet row and, per selection, its outcome, odds, result and the partner's
 * id of a foreign selection (null for the platform's).
 */
export interface ValuedBet {
  row: BetRow;
  selections: Array<
    Pick<
      SelectionRow,
      'sport_event_id' | 'market_id' | 'odd_id' | 'odds' | 'status' | 'dead_heat' | 'foreign_id'
    >
  >;
}

/** A cash-out order the platform decided, as stored (the partner's foreign orders are the MTS module's). */
export interface OrderRow {
  bet_id: string;
  id: string;
  source: 'platform';
  amount: string;
  refund_amount: string;
  status: 'pending' | 'accepted' | 'declined';
  reason: string;
  quote_id: string | null;
  created_at: Date;
  decided_at: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The bet a partner names: the platform's id of a frame bet, or the partner's own `bet_id` of a bet it reported
 * (`POST /bets`). A partner id shaped like a platform id is tried both ways, the platform's id first.
 */
function byBetId(betId: string) {
  return (eb: ExpressionBuilder<DB, 'bet'>) =>
    UUID.test(betId)
      ? eb.or([eb('id', '=', betId), eb('partner_bet_id', '=', betId)])
      : eb('partner_bet_id', '=', betId);
}
function ownIdFirst(betId: string) {
  return UUID.test(betId) ? sql`(bet.id = ${betId}::uuid) desc` : sql`bet.id`;
}

/**
 * A bet of a white label with its selections, locked for the transaction when `lock` (another white label's bet is
 * not found).
 */
export async function loadBet(
  db: Executor,
  whiteLabelId: string,
  betId: string,
  lock: boolean,
): Promise<Bet | undefined> {
  let q = db
    .selectFrom('bet')
    .selectAll()
    .where('white_label_id', '=', whiteLabelId)
    .where(byBetId(betId))
    .orderBy(ownIdFirst(betId))
    .limit(1);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  const selections = await db
    .selectFrom('bet_selection')
    .selectAll()
    .where('bet_id', '=', row.id)
    .orderBy('idx')
    .execute();
  return { row, selections };
}

/** A bet of a white label with what its value needs of its selections, in one query (quotes). */
export async function loadBetToValue(
  db: Executor,
  whiteLabelId: string,
  betId: string,
): Promise<ValuedBet | undefined> {
  const row = await db
    .selectFrom('bet')
    .selectAll()
    .select(
      sql<string>`(SELECT json_agg(json_build_object('sport_event_id', s.sport_event_id, 'market_id', s.market_id,
        'odd_id', s.odd_id, 'odds', s.odds::text, 'status', s.status, 'dead_heat', s.dead_heat::text,
        'foreign_id', s.foreign_id) ORDER BY s.idx)
        FROM bet_selection s WHERE s.bet_id = bet.id)::text`.as('selections_json'),
    )
    .where('white_label_id', '=', whiteLabelId)
    .where(byBetId(betId))
    .orderBy(ownIdFirst(betId))
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const { selections_json, ...bet } = row;
  return { row: bet, selections: JSON.parse(selections_json ?? '[]') as ValuedBet['selections'] };
}

/** A white label's own cash-out margin, or undefined. */
export async function marginOf(db: Executor, whiteLabelId: string): Promise<string | undefined> {
  const r = await db
    .selectFrom('cash_out_margin')
    .select(sql<string>`margin::text`.as('margin'))
    .where('white_label_id', '=', whiteLabelId)
    .executeTakeFirst();
  return r?.margin;
}

/** Every white label's own cash-out margin, by white label id. */
export async function listMargins(db: Executor): Promise<Array<{ white_label_id: string; margin: string }>> {
  return db
    .selectFrom('cash_out_margin')
    .select(['white_label_id', sql<string>`margin::text`.as('margin')])
    .orderBy('white_label_id')
    .execute();
}

/** Sets a white label's own cash-out margin; null removes it (the configured default applies again). */
export async function writeMargin(tx: Executor, whiteLabelId: string, margin: string | null): Promise<void> {
  if (margin === null) {
    await tx.deleteFrom('cash_out_margin').where('white_label_id', '=', whiteLabelId).execute();
    return;
  }
  await tx
    .insertInto('cash_out_margin')
    .values({ white_label_id: whiteLabelId, margin })
    .onConflict((oc) => oc.column('white_label_id').doUpdateSet({ margin }))
    .execute();
}

/** The key quotes are signed with. */
export async function quoteKey(db: Executor): Promise<string> {
  const r = await db
    .selectFrom('cash_out_key')
    .select('secret')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return r.secret;
}

const orderColumns = [
  'bet_id',
  'id',
  'source',
  sql<string>`amount::text`.as('amount'),
  sql<string>`refund_amount::text`.as('refund_amount'),
  'status',
  'reason',
  'quote_id',
  'created_at',
  'decided_at',
] as const;

/** One order of a bet, or undefined. */
export async function findOrder(db: Executor, betId: string, orderId: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom('cash_out_order')
    .select(orderColumns)
    .where('bet_id', '=', betId)
    .where('id', '=', orderId)
    .executeTakeFirst() as Promise<OrderRow | undefined>;
}

/** The orders of several bets, each bet's oldest first; a bet without orders is absent. */
export async function listOrdersOfBets(
  db: Executor,
  betIds: readonly string[],
): Promise<Map<string, OrderRow[]>> {
  const out = new Map<string, OrderRow[]>();
  if (betIds.length === 0) return out;
  const rows = (await db
    .selectFrom('cash_out_order')
    .select(orderColumns)
    .where('bet_id', 'in', [...betIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute()) as OrderRow[];
  for (const o of rows) out.set(o.bet_id, [...(out.get(o.bet_id) ?? []), o]);
  return out;
}

/** Writes a new order. */
export async function insertOrder(db: Executor, o: OrderRow): Promise<void> {
  await db.insertInto('cash_out_order').values(o).execute();
}

/** Declines an order with a reason. */
export async function declineOrder(
  db: Executor,
  betId: string,
  orderId: string,
  reason: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('cash_out_order')
    .set({ status: 'declined', reason, decided_at: at })
    .where('bet_id', '=', betId)
    .where('id', '=', orderId)
    .execute();
}

/**
 * Sets the bet's cashed-out part of the stake and what the player received for it (Σ amount and Σ refund_amount of
 * its accepted orders, decimal strings) and, when given, its state (the exposure trigger follows the state).
 */
export async function setCashedOut(
  db: Executor,
  betId: string,
  cashedOut: { stake: string; refund: string },
  state: 'accepted' | 'cashed_out' | undefined,
  at: Date,
): Promise<void> {
  await db
    .updateTable('bet')
    .set({
      cashed_out_stake: cashedOut.stake,
      cashed_out_refund: cashedOut.refund,
      updated_at: at,
      ...(state ? { state } : {}),
    })
    .where('id', '=', betId)
    .execute();
}

/**
 * What a bet's leg exposures are computed from, as the exposure recompute reads it: total odds, every leg's odds in
 * leg order, the EUR rate (undefined for a bet without kept exposure).
 */
export async function readExposureBasis(
  db: Executor,
  betId: string,
): Promise<{ totalOdds: string; legOdds: string[]; eurRate: string } | undefined> {
  const res = await sql<{ total_odds: string; odds: string[]; rate: string | null }>`
    select b.total_odds::text as total_odds, array_agg(s.odds::text order by s.idx) as odds,
           max(e.eur_rate)::text as rate
    from bet b
    join bet_selection s on s.bet_id = b.id
    left join bet_exposure e on e.bet_id = s.bet_id and e.idx = s.idx
    where b.id = ${betId}::uuid
    group by b.id, b.total_odds`.execute(db);
  const row = res.rows[0];
  if (!row || row.rate === null) return undefined;
  return { totalOdds: row.total_odds, legOdds: row.odds, eurRate: row.rate };
}

/**
 * Sets a bet's leg exposures (EUR, 6 decimals, in leg order); when the bet is open, moves each outcome's exposure by
 * the difference in the same transaction. The caller holds the exposure lock (`lockExposure`).
 */
export async function writeLegExposure(
  db: Executor,
  betId: string,
  amounts: readonly string[],
  open: boolean,
): Promise<void> {
  if (amounts.length === 0) return;
  const moved = await sql<{
    white_label_id: string;
    phase: string;
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    delta: string;
  }>`
    WITH new AS (
      SELECT ord - 1 AS idx, amount::numeric AS amount
        FROM unnest(${amounts as string[]}::text[]) WITH ORDINALITY AS t(amount, ord)
    ),
    old AS (SELECT b.idx, b.amount FROM bet_exposure b WHERE b.bet_id = ${betId}::uuid),
    upd AS (
      UPDATE bet_exposure b SET amount = new.amount
        FROM new, old WHERE b.bet_id = ${betId}::uuid AND b.idx = new.idx AND old.idx = new.idx
      RETURNING b.white_label_id, b.phase, b.sport_event_id, b.market_id, b.odd_id, new.amount - old.amount AS delta
    )
    SELECT white_label_id, phase, sport_event_id, market_id, odd_id, sum(delta)::text AS delta
      FROM upd GROUP BY white_label_id, phase, sport_event_id, market_id, odd_id`.execute(db);
  if (!open) return;
  for (const m of moved.rows) {
    await sql`UPDATE risk_exposure SET amount = amount + ${m.delta}::numeric,
                max_amount = greatest(max_amount, amount + ${m.delta}::numeric)
              WHERE white_label_id = ${m.white_label_id} AND phase = ${m.phase}
                AND sport_event_id = ${m.sport_event_id} AND market_id = ${m.market_id} AND odd_id = ${m.odd_id}`.execute(
      db,
    );
  }
}
