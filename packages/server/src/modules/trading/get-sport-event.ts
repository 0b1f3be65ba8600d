import type { SportEvent } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { Database } from '../../db/database.js';
import { loadSnapshot } from './trading.repo.js';

/**
 * The stored snapshot of one event and its version.
 * @throws DomainError not_found for an unknown event.
 */
export async function getSportEvent(
  deps: { database: Database },
  input: { id: string },
): Promise<{ snapshot: SportEvent; version: bigint }> {
  const s = await loadSnapshot(deps.database.db, input.id);
  if (!s) throw new DomainError('not_found', `unknown sport event "${input.id}"`, { id: input.id });
  return { snapshot: JSON.parse(s.snapshot) as SportEvent, version: s.version };
}
