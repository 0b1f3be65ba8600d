import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Re-sends one event (spec 02 `POST /refetch/sport-event/{id}`, DECISIONS D23): appends a `match_new` with the
 * current snapshot and a new version.
 *
 * @throws DomainError not_found (404) for an unknown event.
 */
export async function refetchSportEvent(
  deps: TradingDeps,
  input: { id: string },
): Promise<{ version: bigint }> {
  const { versions } = await runTradingCommand(deps, (t) => t.refetch(input.id));
  return { version: versions.at(-1)! };
}
