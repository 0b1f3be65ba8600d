import type { BonusListQuery, FreebetView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { findFreebet } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { listBonusPage } from './list-bonus-page.js';
import { freebetView } from './views.js';

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
  return listBonusPage(
    deps,
    { table: 'freebet', noun: 'freebets', statuses: FREEBET_STATUSES, view: freebetView },
    input,
  );
}
