import type { BonusListQuery } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import type { DB, Selectable } from '../../db/schema.js';
import { type BonusTable, listBonuses } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { decodeCursor, encodeCursor, limitOf } from './views.js';

/**
 * A page of one kind of bonus of a white label, newest first, optionally of one player and (where the kind has
 * statuses) in one status: `expired` is available past `expires_at`, `available` is available and not expired. Pages
 * by `cursor`.
 *
 * @param statuses the statuses the kind may be filtered by; undefined when the kind has no status filter.
 * @throws DomainError validation_error naming `querystring.status` (unknown, or the kind has none).
 */
export async function listBonusPage<T extends BonusTable, V>(
  deps: BonusesDeps,
  kind: {
    table: T;
    /** The kind's name in messages, plural ("bet boosts"). */
    noun: string;
    statuses: readonly string[] | undefined;
    view: (row: Selectable<DB[T]>, now: number) => V;
  },
  input: { whiteLabelId: string; query: BonusListQuery },
): Promise<{ items: V[]; next_cursor: string | null }> {
  const { query } = input;
  const status = query.status;
  if (status !== undefined) {
    if (!kind.statuses) throw validationError('querystring.status', `is not a filter of ${kind.noun}`);
    if (!kind.statuses.includes(status)) {
      throw validationError('querystring.status', `must be one of ${kind.statuses.join(', ')}`);
    }
  }
  const now = deps.clock.now();
  const limit = limitOf(query.limit);
  const at = new Date(now);
  const rows = await listBonuses(deps.database.db, kind.table, {
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
  // the three bonus tables share the keyset columns (created_at, id)
  const last = rows.at(-1);
  return {
    items: rows.map((r) => kind.view(r, now)),
    next_cursor:
      rows.length === limit && last
        ? encodeCursor(last as unknown as { created_at: Date; id: string })
        : null,
  };
}
