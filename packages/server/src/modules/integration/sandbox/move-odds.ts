import type { SandboxMoveOddsBody } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import { patchMarkets } from '../../trading/index.js';
import type { IntegrationDeps } from '../deps.js';
import { assertOddsOfMarket, sandboxMarket } from './sandbox-market.js';

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
  const market = await sandboxMarket(deps, input);
  const entries = Object.entries(input.body.odds);
  if (entries.length === 0) throw validationError('body.odds', 'name at least one odd');
  assertOddsOfMarket(
    market,
    entries.map(([oddId]) => oddId),
  );
  const r = await patchMarkets(deps, {
    id: input.id,
    body: { markets: [{ id: input.marketId, odds: entries.map(([id, value]) => ({ id, value })) }] },
  });
  deps.feed?.poke();
  return { id: input.id, market_id: input.marketId, version: r.version.toString() };
}
