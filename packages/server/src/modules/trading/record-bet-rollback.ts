import type { BetRollbackBody } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Records a bet rollback (spec 02 "bet_rollback"): appends one `bet_rollback` entry; empty `market_ids` means every
 * market of the event.
 *
 * @throws DomainError validation_error naming the field: `dt_end` before `dt_start`; unknown event: `id`.
 */
export async function recordBetRollback(
  deps: TradingDeps,
  input: { id: string; body: BetRollbackBody },
): Promise<{ id: string; version: bigint }> {
  const { body } = input;
  if (Date.parse(body.dt_end) < Date.parse(body.dt_start)) {
    throw validationError('body.dt_end', 'must not be before dt_start');
  }
  const { versions } = await runTradingCommand(deps, (t) =>
    t.betRollback(input.id, {
      market_ids: body.market_ids,
      reason: body.reason,
      dt_start: body.dt_start,
      dt_end: body.dt_end,
    }),
  );
  return { id: input.id, version: versions.at(-1)! };
}
