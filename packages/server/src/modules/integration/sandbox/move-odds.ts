import type { SandboxMoveOddsBody } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { getSportEvent, patchMarkets } from '../../trading/index.js';
import type { IntegrationDeps } from '../deps.js';

/**
 * Sandbox helper "move odds" (DECISIONS D51): sets new decimal odds on odds of one market, as a trader would; the
 * change goes out on the feed, and bets placed at the old odds meet the odds acceptance strategy.
 *
 * @throws DomainError not_found (unknown event or market), validation_error naming `body.odds.<id>`.
 */
export async function moveOdds(
  deps: IntegrationDeps,
  input: { id: string; marketId: string; body: SandboxMoveOddsBody },
): Promise<{ id: string; market_id: string; version: string }> {
  const { snapshot } = await getSportEvent(deps, { id: input.id });
  const market = Object.hasOwn(snapshot.markets, input.marketId)
    ? snapshot.markets[input.marketId]
    : undefined;
  if (!market) {
    throw new DomainError('not_found', `unknown market "${input.marketId}" of sport event "${input.id}"`, {
      field: 'market_id',
    });
  }
  const entries = Object.entries(input.body.odds);
  if (entries.length === 0) throw validationError('body.odds', 'name at least one odd');
  for (const [oddId] of entries) {
    if (!Object.hasOwn(market.odds, oddId))
      throw validationError(`body.odds.${oddId}`, 'is not an odd of the market');
  }
  const r = await patchMarkets(deps, {
    id: input.id,
    body: { markets: [{ id: input.marketId, odds: entries.map(([id, value]) => ({ id, value })) }] },
  });
  deps.feed?.poke();
  return { id: input.id, market_id: input.marketId, version: r.version.toString() };
}
