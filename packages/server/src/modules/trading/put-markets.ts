import type { PutMarketsBody } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import { toMarket } from './build-snapshot.js';
import { command } from './update-fixture.js';
import type { TradingDeps } from './writer.js';

/**
 * Adds or replaces whole markets (spec 02: "a whole market can be added under markets/<market_id>"): one
 * `match_update` with a `markets/<id>` path per market.
 *
 * @throws DomainError validation_error naming the field (`body.markets[i]…`; unknown event: `id`).
 */
export async function putMarkets(
  deps: TradingDeps,
  input: { id: string; body: PutMarketsBody },
): Promise<{ id: string; version: bigint }> {
  const changes: Record<string, unknown> = {};
  const fieldOfKey: Record<string, string> = {};
  input.body.markets.forEach((m, i) => {
    const key = `markets/${m.id}`;
    if (Object.hasOwn(changes, key))
      throw validationError(`body.markets[${i}].id`, `duplicate market id "${m.id}"`);
    changes[key] = toMarket(m);
    fieldOfKey[key] = `body.markets[${i}]`;
  });
  return command(deps, input.id, changes, fieldOfKey);
}
