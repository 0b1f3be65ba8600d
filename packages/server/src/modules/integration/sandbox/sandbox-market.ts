import { DomainError, validationError } from '@bookie/core';
import { getSportEvent } from '../../trading/index.js';
import type { IntegrationDeps } from '../deps.js';

/**
 * The market a sandbox helper acts on, as the book holds it now.
 *
 * @throws DomainError not_found (unknown event or market, naming `market_id`).
 */
export async function sandboxMarket(deps: IntegrationDeps, input: { id: string; marketId: string }) {
  const { snapshot } = await getSportEvent(deps, { id: input.id });
  const market = Object.hasOwn(snapshot.markets, input.marketId)
    ? snapshot.markets[input.marketId]
    : undefined;
  if (!market) {
    throw new DomainError('not_found', `unknown market "${input.marketId}" of sport event "${input.id}"`, {
      field: 'market_id',
    });
  }
  return market;
}

/**
 * Checks that every odd a sandbox request names is an odd of the market.
 *
 * @throws DomainError validation_error naming `body.odds.<id>` (the first unknown odd).
 */
export function assertOddsOfMarket(market: { odds: object }, oddIds: readonly string[]): void {
  for (const oddId of oddIds) {
    if (!Object.hasOwn(market.odds, oddId))
      throw validationError(`body.odds.${oddId}`, 'is not an odd of the market');
  }
}
