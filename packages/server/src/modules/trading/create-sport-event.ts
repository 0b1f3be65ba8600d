import { randomUUID } from 'node:crypto';
import type { CreateSportEventBody } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { buildSnapshot } from './build-snapshot.js';
import { isoNow } from './snapshot-rules.js';
import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Creates a sport event: appends a `match_new` with its snapshot (spec 02). Odd values are written with 12 decimals.
 *
 * @returns the event id and the version of its `match_new`.
 * @throws DomainError validation_error naming the field (a duplicate market id, a bad value); conflict (409) when
 *   the id exists.
 */
export async function createSportEvent(
  deps: TradingDeps,
  body: CreateSportEventBody,
): Promise<{ id: string; version: bigint }> {
  const id = body.id ?? randomUUID();
  const seen = new Set<string>();
  (body.markets ?? []).forEach((m, i) => {
    if (seen.has(m.id)) throw validationError(`body.markets[${i}].id`, `duplicate market id "${m.id}"`);
    seen.add(m.id);
  });
  const { versions } = await runTradingCommand(deps, async (t) => {
    if (await t.find(id)) throw new DomainError('conflict', `sport event "${id}" exists`, { id });
    t.matchNew(buildSnapshot(body, id, isoNow(t.nowMs)), 'body');
  });
  return { id, version: versions.at(-1)! };
}
