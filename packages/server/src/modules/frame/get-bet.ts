import type { BetPage, BetView } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { Bet } from '../bets/index.js';
import { findBet, listPlayerBets, loadBets, toBetView } from '../bets/index.js';
import { listOrdersOfBets } from '../cash-out/index.js';

/**
 * One bet of a white label. With `playerId`, only that player's bet. Another white label's (or player's) bet is
 * not found (isolation: 404, not 403). The view lists the bet's cash-out orders.
 *
 * @throws DomainError not_found
 */
export async function getBet(
  db: Executor,
  scope: { whiteLabelId: string; playerId?: string },
  id: string,
): Promise<BetView> {
  const bet = await findBet(db, scope.whiteLabelId, id);
  if (!bet || (scope.playerId !== undefined && bet.row.player_id !== scope.playerId)) {
    throw new DomainError('not_found', `no bet ${id}`, { field: 'id' });
  }
  const orders = await listOrdersOfBets(db, [bet.row.id]);
  return toBetView(bet, orders.get(bet.row.id) ?? []);
}

function encodeCursor(row: { created_at: Date; id: string }): string {
  return Buffer.from(`${new Date(row.created_at).toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()))
    throw validationError('cursor', 'is not a cursor of this listing');
  return { createdAt, id };
}

/** A page of a player's bets, newest first (bet history), each with its cash-out orders; `next` continues the listing. */
export async function listBets(
  db: Executor,
  scope: { whiteLabelId: string; playerId: string },
  page: { cursor?: string; limit: number },
): Promise<BetPage> {
  const rows = await listPlayerBets(db, scope.whiteLabelId, scope.playerId, {
    limit: page.limit + 1,
    ...(page.cursor ? { before: decodeCursor(page.cursor) } : {}),
  });
  const more = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  const bets = (await loadBets(
    db,
    pageRows.map((r) => r.id),
  )) as Bet[];
  const last = pageRows[pageRows.length - 1];
  const orders = await listOrdersOfBets(
    db,
    bets.map((b) => b.row.id),
  );
  return {
    items: bets.map((b) => toBetView(b, orders.get(b.row.id) ?? [])),
    next: more && last ? encodeCursor(last) : null,
  };
}
