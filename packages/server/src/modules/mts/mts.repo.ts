import type { Restriction } from '@bookie/core';
import type { BetState } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import type { BetRow, SelectionRow } from '../bets/bet.js';

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

/** Stores reported bets' requests and answers (a concurrent report of the same id fails on the primary key). */
export async function insertReports(
  tx: Executor,
  reports: ReadonlyArray<{
    whiteLabelId: string;
    partnerBetId: string;
    request: string;
    answer: string;
    betId: string;
  }>,
): Promise<void> {
  if (reports.length === 0) return;
  await tx
    .insertInto('mts_request')
    .values(
      reports.map((r) => ({
        white_label_id: r.whiteLabelId,
        partner_bet_id: r.partnerBetId,
        request: r.request,
        answer: r.answer,
        bet_id: r.betId,
      })),
    )
    .execute();
}

/** A selection of a reported bet as stored: a platform one, or a foreign one (`foreignId`). */
export interface ReportedSelectionRow {
  sportEventId: string;
  marketId: string;
  oddId: string;
  requestedOdds: string;
  odds: string;
  oddUpdatedAt: Date;
  matchStatus: number;
  eventInfo: Record<string, unknown>;
  foreignId: string | null;
}

/** A reported bet to insert. */
export interface ReportedBetRow {
  id: string;
  partnerBetId: string;
  whiteLabelId: string;
  playerId: string;
  currency: string;
  betType: 'single' | 'express' | 'system';
  systemSizes: number[];
  stake: string;
  oddsStrategy: number;
  totalOdds: string;
  state: 'hold_requested' | 'declined';
  restrictions: readonly Restriction[];
  foreignParams: Record<string, unknown>;
  clientIp: string | null;
  countryCode: string | null;
  createdAt: Date;
  decidedAt: Date;
  selections: readonly ReportedSelectionRow[];
}

/**
 * Inserts reported bets (source `mts`) and their selections (foreign ones are resulted by the partner only); returns
 * the stored rows and selections, in order.
 */
export async function insertReportedBets(
  tx: Executor,
  bets: readonly ReportedBetRow[],
): Promise<{ rows: BetRow[]; selections: SelectionRow[] }> {
  if (bets.length === 0) return { rows: [], selections: [] };
  const rows = await tx
    .insertInto('bet')
    .values(
      bets.map((b) => ({
        id: b.id,
        white_label_id: b.whiteLabelId,
        player_id: b.playerId,
        currency: b.currency,
        bet_type: b.betType,
        system_sizes: JSON.stringify(b.systemSizes),
        stake: b.stake,
        odds_strategy: b.oddsStrategy,
        base_odds: b.totalOdds,
        total_odds: b.totalOdds,
        state: b.state,
        restrictions: JSON.stringify(b.restrictions),
        freebet_id: null,
        insurance_id: null,
        boost_id: null,
        foreign_params: JSON.stringify(b.foreignParams),
        session_token_hash: null,
        client_key: null,
        created_at: b.createdAt,
        placement_deadline: b.decidedAt,
        decided_at: b.decidedAt,
        source: 'mts',
        partner_bet_id: b.partnerBetId,
        client_ip: b.clientIp,
        country_code: b.countryCode,
      })),
    )
    .returningAll()
    .execute();
  const selections = bets.flatMap((b) =>
    b.selections.map((s, idx) => ({
      bet_id: b.id,
      idx,
      sport_event_id: s.sportEventId,
      market_id: s.marketId,
      odd_id: s.oddId,
      requested_odds: s.requestedOdds,
      odds: s.odds,
      odd_updated_at: s.oddUpdatedAt,
      match_status: s.matchStatus,
      event_info: JSON.stringify(s.eventInfo),
      foreign_id: s.foreignId,
      result_source: s.foreignId ? ('manual' as const) : ('feed' as const),
    })),
  );
  const stored =
    selections.length > 0
      ? await tx.insertInto('bet_selection').values(selections).returningAll().execute()
      : [];
  return { rows, selections: stored };
}

/** Moves a reported bet to `state` from one of `from`; returns whether it moved. */
export async function moveReportedBet(
  tx: Executor,
  betId: string,
  from: readonly BetState[],
  to: 'accepted' | 'declined' | 'cashed_out',
  changes: { restrictions?: readonly Restriction[]; decidedAt?: Date } = {},
): Promise<boolean> {
  const r = await tx
    .updateTable('bet')
    .set({
      state: to,
      updated_at: new Date(),
      ...(changes.restrictions ? { restrictions: JSON.stringify(changes.restrictions) } : {}),
      ...(changes.decidedAt ? { decided_at: changes.decidedAt } : {}),
    })
    .where('id', '=', betId)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A foreign cash-out order as stored. */
export interface ForeignCashOutRow {
  order_id: string;
  amount: string;
  refund_amount: string;
  status: 'pending' | 'accepted' | 'declined';
  reason: string | null;
  created_at: string;
}

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

/** Sets the sum of a bet's accepted foreign cash-outs (what settlement deducts from the stake). */
export async function setForeignCashedOut(tx: Executor, betId: string, amount: string): Promise<void> {
  await tx.updateTable('bet').set({ foreign_cashed_out: amount }).where('id', '=', betId).execute();
}
