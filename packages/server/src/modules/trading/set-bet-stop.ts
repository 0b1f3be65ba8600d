import { command } from './update-fixture.js';
import type { TradingDeps } from './writer.js';

/**
 * Bet stop on or off (spec 02 "bet_stop"): one `match_update` with `bet_stop`.
 * @throws DomainError validation_error (unknown event: `id`).
 */
export function setBetStop(
  deps: TradingDeps,
  input: { id: string; betStop: boolean },
): Promise<{ id: string; version: bigint }> {
  return command(deps, input.id, { bet_stop: input.betStop }, { bet_stop: 'body.bet_stop' });
}
