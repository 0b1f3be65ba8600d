import type { SandboxResultMarketBody } from '@bookie/contracts';
import { patchMarkets } from '../../trading/index.js';
import type { IntegrationDeps } from '../deps.js';
import { assertOddsOfMarket, sandboxMarket } from './sandbox-market.js';

/** Odd status of the odds a result does not list: loss. */
const LOSS = 2;

/**
 * Sandbox helper "result a market now" (DECISIONS D51): resolves one market of a sport event at once, as the
 * trading side would after the match: the listed odds get their status (1–6), every other odd of the market loses,
 * and the market becomes resulted (3). One feed entry; settlement then settles the bets on it from the feed.
 *
 * @throws DomainError not_found (unknown event or market), validation_error naming `body.odds.<id>` (unknown odd).
 */
export async function resultMarketNow(
  deps: IntegrationDeps,
  input: { id: string; marketId: string; body: SandboxResultMarketBody },
): Promise<{ id: string; market_id: string; version: string }> {
  const market = await sandboxMarket(deps, input);
  assertOddsOfMarket(market, Object.keys(input.body.odds));
  const odds = Object.keys(market.odds).map((oddId) => ({
    id: oddId,
    status: Object.hasOwn(input.body.odds, oddId) ? (input.body.odds[oddId] as number) : LOSS,
  }));
  const r = await patchMarkets(deps, {
    id: input.id,
    body: { markets: [{ id: input.marketId, status: 3, odds }] },
  });
  deps.feed?.poke();
  return { id: input.id, market_id: input.marketId, version: r.version.toString() };
}
