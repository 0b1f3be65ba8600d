import type { BonusListQuery, FreebetView } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { findFreebet, listBonuses } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { decodeCursor, encodeCursor, freebetView, limitOf } from './views.js';

/** One freebet of the white label. @throws DomainError not_found (unknown, or another white label's). */
export async function getFreebet(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string },
): Promise<FreebetView> {
  const row = await findFreebet(deps.database.db, input.whiteLabelId, input.id);
  if (!row) throw new DomainError('not_found', `no freebet ${input.id}`, { field: 'id' });
  return freebetView(row, deps.clock.now());
}

const FREEBET_STATUSES = ['available', 'reserved', 'used', 'cancelled', 'expired'];

/**
 * The white label's freebets, newest first, optionally of one player and in one status (`expired`: available past
 * expires_at; `available`: available and not expired). Pages by `cursor`.
 */
export async function listFreebets(
  deps: BonusesDeps,
  input: { whiteLabelId: string; query: BonusListQuery },
): Promise<{ items: FreebetView[]; next_cursor: string | null }> {
  const { query } = input;
  const now = deps.clock.now();
  const limit = limitOf(query.limit);
  const status = query.status;
  if (status !== undefined && !FREEBET_STATUSES.includes(status)) {
    throw validationError('querystring.status', `must be one of ${FREEBET_STATUSES.join(', ')}`);
  }
  const at = new Date(now);
  const rows = await listBonuses(deps.database.db, 'freebet', {
    whiteLabelId: input.whiteLabelId,
    ...(query.player_id !== undefined ? { playerId: query.player_id } : {}),
    ...(status === undefined
      ? {}
      : status === 'expired'
        ? { statuses: ['available'], expired: { at, value: true } }
        : status === 'available'
          ? { statuses: ['available'], expired: { at, value: false } }
          : { statuses: [status] }),
    ...(query.cursor !== undefined ? { after: decodeCursor(query.cursor) } : {}),
    limit,
  });
  const last = rows.at(-1);
  return {
    items: rows.map((r) => freebetView(r, now)),
    next_cursor: rows.length === limit && last ? encodeCursor(last) : null,
  };
}
