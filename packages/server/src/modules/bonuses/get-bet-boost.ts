import type { BetBoostView, BonusListQuery } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { findBetBoost, listBonuses } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { betBoostView, decodeCursor, encodeCursor, limitOf } from './views.js';

/** One bet boost of the white label. @throws DomainError not_found (unknown, or another white label's). */
export async function getBetBoost(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string },
): Promise<BetBoostView> {
  const row = await findBetBoost(deps.database.db, input.whiteLabelId, input.id);
  if (!row) throw new DomainError('not_found', `no bet boost ${input.id}`, { field: 'id' });
  return betBoostView(row, deps.clock.now());
}

/** The white label's bet boosts, newest first, optionally of one player (boosts for one player); pages by `cursor`. */
export async function listBetBoosts(
  deps: BonusesDeps,
  input: { whiteLabelId: string; query: BonusListQuery },
): Promise<{ items: BetBoostView[]; next_cursor: string | null }> {
  const { query } = input;
  if (query.status !== undefined)
    throw validationError('querystring.status', 'is not a filter of bet boosts');
  const now = deps.clock.now();
  const limit = limitOf(query.limit);
  const rows = await listBonuses(deps.database.db, 'bet_boost', {
    whiteLabelId: input.whiteLabelId,
    ...(query.player_id !== undefined ? { playerId: query.player_id } : {}),
    ...(query.cursor !== undefined ? { after: decodeCursor(query.cursor) } : {}),
    limit,
  });
  const last = rows.at(-1);
  return {
    items: rows.map((r) => betBoostView(r, now)),
    next_cursor: rows.length === limit && last ? encodeCursor(last) : null,
  };
}
