import type { PartnerBetPage } from '@bookie/contracts';
import { BET_STATUS, validationError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { Bet } from '../bets/index.js';
import { listWhiteLabelBets, loadBets, type WhiteLabelBetFilter } from '../bets/index.js';
import { partnerBets } from '../mts/index.js';

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
