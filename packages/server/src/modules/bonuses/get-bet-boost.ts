import type { BetBoostView, BonusListQuery } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { findBetBoost } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { listBonusPage } from './list-bonus-page.js';
import { betBoostView } from './views.js';

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
  return listBonusPage(
    deps,
    { table: 'bet_boost', noun: 'bet boosts', statuses: undefined, view: betBoostView },
    input,
  );
}
