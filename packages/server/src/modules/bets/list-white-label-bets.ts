import type { PartnerBet, PartnerBetPage } from '@bookie/contracts';
import { BET_STATUS, DomainError, validationError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { listOrdersOfBets } from '../cash-out/cash-out.repo.js';
import { orderView } from '../cash-out/order-view.js';
import { loadForeignCashOutOrders } from '../mts/mts.repo.js';
import type { Bet } from './bet.js';
import { findBet, listWhiteLabelBets, loadBets, type WhiteLabelBetFilter } from './bets.repo.js';
import { toPartnerBet } from './partner-bet-view.js';

/**
 * Bets in the partner shape, each with the foreign cash-out orders its partner reported (MTS bets) and the cash-out
 * orders Bookie decided.
 */
async function partnerBets(db: Executor, bets: readonly Bet[]): Promise<PartnerBet[]> {
  const orders = await loadForeignCashOutOrders(
    db,
    bets.filter((b) => b.row.source === 'mts').map((b) => b.row.id),
  );
  const platformOrders = await listOrdersOfBets(
    db,
    bets.map((b) => b.row.id),
  );
  return bets.map((b) =>
    toPartnerBet(
      b,
      (orders.get(b.row.id) ?? []).map((o) => ({
        id: o.order_id,
        amount: o.amount,
        refund_amount: o.refund_amount,
        status: { code: o.status, reason: o.reason },
        created_at: o.created_at,
      })),
      (platformOrders.get(b.row.id) ?? []).map(orderView),
    ),
  );
}

/** Input of {@link listWhiteLabelBetsPage}: the query of `GET /bets` as sent (strings). */
export interface WhiteLabelBetQuery {
  playerId?: string;
  status?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: string;
}

const STATES_OF: Record<number, NonNullable<WhiteLabelBetFilter['states']>> = {
  [BET_STATUS.ACCEPTED]: [{ state: 'accepted' }],
  [BET_STATUS.DECLINED]: [{ state: 'declined' }],
  [BET_STATUS.SETTLED]: [{ state: 'settled', settleStatus: 3 }],
  [BET_STATUS.UNSETTLED]: [{ state: 'unsettled' }],
  [BET_STATUS.REFUNDED]: [{ state: 'settled', settleStatus: 5 }],
  [BET_STATUS.REFUNDED_MANUALLY]: [{ state: 'settled', settleStatus: 6 }],
  [BET_STATUS.CASHED_OUT]: [{ state: 'cashed_out' }],
  [BET_STATUS.PLACE_ERROR]: [{ state: 'place_error' }],
  [BET_STATUS.FORCE_DECLINE]: [{ state: 'force_declined' }],
};

function time(field: string, raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const t = new Date(raw);
  if (Number.isNaN(t.getTime())) throw validationError(field, 'must be an ISO 8601 date-time');
  return t;
}

function encodeCursor(row: { created_at: Date; id: string }): string {
  return Buffer.from(`${new Date(row.created_at).toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime()))
    throw validationError('querystring.cursor', 'is not a cursor of this listing');
  return { createdAt, id };
}

/**
 * A page of every bet of a white label, newest first (DECISIONS D54 `GET /bets`), filtered by player, D6 status
 * code and placement window `[from, to)`; `next` continues the listing.
 *
 * @throws DomainError validation_error naming `querystring.status`, `.from`, `.to`, `.cursor` or
 * `.limit`.
 */
export async function listWhiteLabelBetsPage(
  db: Executor,
  whiteLabelId: string,
  query: WhiteLabelBetQuery,
): Promise<PartnerBetPage> {
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw validationError('querystring.limit', 'must be 1..500');
  let states: WhiteLabelBetFilter['states'];
  if (query.status !== undefined) {
    states = STATES_OF[Number(query.status)];
    if (!states)
      throw validationError('querystring.status', `must be one of ${Object.keys(STATES_OF).join(', ')}`);
  }
  const from = time('querystring.from', query.from);
  const to = time('querystring.to', query.to);
  if (from && to && from >= to) throw validationError('querystring.to', 'must be after querystring.from');
  const rows = await listWhiteLabelBets(
    db,
    whiteLabelId,
    {
      ...(query.playerId !== undefined ? { playerId: query.playerId } : {}),
      ...(states ? { states } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    },
    { limit: limit + 1, ...(query.cursor ? { before: decodeCursor(query.cursor) } : {}) },
  );
  const more = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const bets = (await loadBets(
    db,
    pageRows.map((r) => r.id),
  )) as Bet[];
  const last = pageRows[pageRows.length - 1];
  return { items: await partnerBets(db, bets), next: more && last ? encodeCursor(last) : null };
}

/**
 * One bet of a white label in the D29 shape (`GET /bets/{bet_id}`); another white label's bet is not found.
 *
 * @throws DomainError not_found
 */
export async function getPartnerBet(db: Executor, whiteLabelId: string, betId: string): Promise<PartnerBet> {
  const bet = await findBet(db, whiteLabelId, betId);
  if (!bet) throw new DomainError('not_found', `no bet ${betId}`, { field: 'bet_id' });
  return (await partnerBets(db, [bet]))[0] as PartnerBet;
}
