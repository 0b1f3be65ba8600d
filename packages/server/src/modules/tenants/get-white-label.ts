import type { WhiteLabelView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { TenancyDeps } from './deps.js';
import { findWhiteLabel, listCredentials } from './tenants.repo.js';
import { toWhiteLabel, type WhiteLabel, whiteLabelView } from './white-label.js';

/**
 * The white label with `id` (limits, currencies, bet delay and interval, callback URL, signing…), for other
 * modules. Pass `db` to read inside a transaction.
 *
 * @throws DomainError not_found.
 */
export async function getWhiteLabel(
  deps: Pick<TenancyDeps, 'database'>,
  id: string,
  db: Executor = deps.database.db,
): Promise<WhiteLabel> {
  const row = await findWhiteLabel(db, id);
  if (!row) throw new DomainError('not_found', `white label ${id} not found`);
  return toWhiteLabel(row);
}

/** The admin view of one white label, with its signing secret and credentials (`bookie wl show`). */
export async function showWhiteLabel(deps: TenancyDeps, id: string): Promise<WhiteLabelView> {
  const wl = await getWhiteLabel(deps, id);
  const credentials = await listCredentials(deps.database.db, id);
  return whiteLabelView(wl, { withSecret: true, credentials, now: deps.clock.now() });
}
