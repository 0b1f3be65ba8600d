import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Appends a raw `match_update` (importers; spec 02 "match_update changes", DECISIONS D24): paths are checked,
 * odd values written with 12 decimals, and the resulting snapshot validated.
 *
 * @throws DomainError validation_error naming `body.changes.<path>` (unknown event: `id`); nothing is written.
 */
export async function applyChangesCommand(
  deps: TradingDeps,
  input: { id: string; changes: Record<string, unknown> },
): Promise<{ id: string; version: bigint }> {
  const { versions } = await runTradingCommand(deps, (t) =>
    t.matchUpdate(input.id, input.changes, (k) => `body.changes.${k}`),
  );
  return { id: input.id, version: versions.at(-1)! };
}
