import type { UpdateFixtureBody } from '@bookie/contracts';
import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Changes the fixture status and fields (spec 02 "Fixture"): one `match_update` with `fixture/<field>` paths and
 * `fixture/updated_at`. `meta` and `streams` are merged key by key; `competitors` are replaced one by one.
 *
 * @throws DomainError validation_error naming the field (unknown event: `id`).
 */
export async function updateFixture(
  deps: TradingDeps,
  input: { id: string; body: UpdateFixtureBody },
): Promise<{ id: string; version: bigint }> {
  const changes: Record<string, unknown> = {};
  const fieldOfKey: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.body)) {
    if (k === 'meta' || k === 'streams' || k === 'competitors') {
      for (const [sub, value] of Object.entries(v as Record<string, unknown>)) {
        changes[`fixture/${k}/${sub}`] = value;
        fieldOfKey[`fixture/${k}/${sub}`] = `body.${k}.${sub}`;
      }
    } else {
      changes[`fixture/${k}`] = v;
      fieldOfKey[`fixture/${k}`] = `body.${k}`;
    }
  }
  return command(deps, input.id, changes, fieldOfKey);
}

/** Runs one `match_update` on `id` whose change keys map to request fields through `fieldOfKey`. */
export async function command(
  deps: TradingDeps,
  id: string,
  changes: Record<string, unknown>,
  fieldOfKey: Record<string, string>,
  extraFixtureUpdatedAt = true,
): Promise<{ id: string; version: bigint }> {
  const { versions } = await runTradingCommand(deps, async (t) => {
    const now = new Date(t.nowMs).toISOString();
    const all =
      extraFixtureUpdatedAt && Object.keys(changes).some((k) => k.startsWith('fixture/'))
        ? { ...changes, 'fixture/updated_at': now }
        : changes;
    await t.matchUpdate(id, all, (k) => fieldOfKey[k] ?? `changes.${k}`);
  });
  return { id, version: versions.at(-1)! };
}
