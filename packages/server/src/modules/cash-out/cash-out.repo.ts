import { type ExpressionBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { BetRow, OrderRow, SelectionRow } from '../bets/index.js';

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
  /** The bet's bet builders, one element each (a bet carrying one is not cashed out, D65). */
  builders: readonly unknown[];
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

/** A bet of a white label with what its value needs of its selections, in one query (quotes). */
export async function loadBetToValue(
  db: Executor,
  whiteLabelId: string,
  betId: string,
): Promise<ValuedBet | undefined> {
  const row = await db
    .selectFrom('bet')
    .selectAll()
    .select((eb) => [
      sql<string>`(SELECT json_agg(json_build_object('sport_event_id', s.sport_event_id, 'market_id', s.market_id,
        'odd_id', s.odd_id, 'odds', s.odds::text, 'status', s.status, 'dead_heat', s.dead_heat::text,
        'foreign_id', s.foreign_id) ORDER BY s.idx)
        FROM bet_selection s WHERE s.bet_id = bet.id AND s.builder IS NULL)::text`.as('selections_json'),
      eb
        .selectFrom('bet_builder')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('bet_builder.bet_id', '=', 'bet.id')
        .as('builder_count'),
    ])
    .where('white_label_id', '=', whiteLabelId)
    .where(byBetId(betId))
    .orderBy(ownIdFirst(betId))
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const { selections_json, builder_count, ...bet } = row;
  return {
    row: bet,
    selections: JSON.parse(selections_json ?? '[]') as ValuedBet['selections'],
    builders: Array.from({ length: Number(builder_count) }, (_, i) => i),
  };
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

export type { OrderRow };
