import { CompiledQuery } from 'kysely';
import type { MtsForeignCashOutOrderTable, Selectable } from '../../db/schema.js';
import { type Executor, sendWrite } from '../../db/transaction.js';

/** A reported bet's stored request and answer. */
export interface StoredReport {
  request: string;
  answer: string;
  bet_id: string;
}

/** The request and answer stored for a partner's bet id, if any. */
export async function findReport(
  db: Executor,
  whiteLabelId: string,
  partnerBetId: string,
): Promise<StoredReport | undefined> {
  return db
    .selectFrom('mts_request')
    .select(['request', 'answer', 'bet_id'])
    .where('white_label_id', '=', whiteLabelId)
    .where('partner_bet_id', '=', partnerBetId)
    .executeTakeFirst();
}

/**
 * The insert of reported bets' requests and answers: one text whatever their number (the rows as one JSON
 * parameter), compiled once here and prepared once per connection. The request and the answer travel as JSON strings
 * (a `json` value would keep its text too, but Postgres refuses some escapes JSON allows in it, e.g. `\u0000`).
 */
const INSERT_REPORTS = `INSERT INTO mts_request (white_label_id, partner_bet_id, request, answer, bet_id)
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS v(white_label_id text, partner_bet_id text, request text, answer text, bet_id uuid)`;

/** A reported bet's request and answer, to store. */
export interface Report {
  whiteLabelId: string;
  partnerBetId: string;
  /** The request's JSON text. */
  request: string;
  /** The answer's JSON text. */
  answer: string;
  betId: string;
}

/** Stores reported bets' requests and answers (a concurrent report of the same id fails on the primary key). */
export async function insertReports(tx: Executor, reports: readonly Report[]): Promise<void> {
  if (reports.length === 0) return;
  const rows = reports.map((r) => ({
    white_label_id: r.whiteLabelId,
    partner_bet_id: r.partnerBetId,
    request: r.request,
    answer: r.answer,
    bet_id: r.betId,
  }));
  await sendWrite(tx, CompiledQuery.raw(INSERT_REPORTS, [JSON.stringify(rows)]));
}

/** A foreign cash-out order as stored. */
export type ForeignCashOutRow = Omit<Selectable<MtsForeignCashOutOrderTable>, 'bet_id' | 'updated_at'>;

/** The foreign cash-out orders of bets, by bet id, in order id order. */
export async function loadForeignCashOutOrders(
  db: Executor,
  betIds: readonly string[],
): Promise<Map<string, ForeignCashOutRow[]>> {
  const out = new Map<string, ForeignCashOutRow[]>();
  if (betIds.length === 0) return out;
  const rows = await db
    .selectFrom('mts_foreign_cash_out_order')
    .select(['bet_id', 'order_id', 'amount', 'refund_amount', 'status', 'reason', 'created_at'])
    .where('bet_id', 'in', betIds)
    .orderBy('bet_id')
    .orderBy('order_id')
    .execute();
  for (const { bet_id, ...r } of rows) {
    const list = out.get(bet_id) ?? [];
    list.push(r);
    out.set(bet_id, list);
  }
  return out;
}

/** Writes foreign cash-out orders as reported (insert or replace by order id). */
export async function upsertForeignCashOutOrders(
  tx: Executor,
  betId: string,
  orders: readonly ForeignCashOutRow[],
): Promise<void> {
  if (orders.length === 0) return;
  await tx
    .insertInto('mts_foreign_cash_out_order')
    .values(orders.map((o) => ({ bet_id: betId, ...o })))
    .onConflict((oc) =>
      oc.columns(['bet_id', 'order_id']).doUpdateSet((eb) => ({
        amount: eb.ref('excluded.amount'),
        refund_amount: eb.ref('excluded.refund_amount'),
        status: eb.ref('excluded.status'),
        reason: eb.ref('excluded.reason'),
        created_at: eb.ref('excluded.created_at'),
        updated_at: new Date(),
      })),
    )
    .execute();
}
