import type { PatchMarketsBody } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Sets market statuses, the defective flag, odd values, odd statuses (results 1–6 included) and `is_active` of
 * existing markets and odds (spec 02 "Market status", "Odd status"): one `match_update` with `markets/<id>/status`,
 * `markets/<id>/is_defective` and
 * `markets/<id>/odds/<odd>/<field>` paths.
 *
 * @throws DomainError validation_error naming the field: an unknown market (`body.markets[i].id`) or odd
 *   (`body.markets[i].odds[j].id`), a bad value; unknown event: `id`.
 */
export async function patchMarkets(
  deps: TradingDeps,
  input: { id: string; body: PatchMarketsBody },
): Promise<{ id: string; version: bigint }> {
  const { versions } = await runTradingCommand(deps, async (t) => {
    const event = await t.get(input.id);
    const changes: Record<string, unknown> = {};
    const fieldOfKey: Record<string, string> = {};
    input.body.markets.forEach((m, i) => {
      const market = Object.hasOwn(event.markets, m.id) ? event.markets[m.id] : undefined;
      if (!market) throw validationError(`body.markets[${i}].id`, `unknown market "${m.id}"`);
      if (m.status !== undefined) {
        changes[`markets/${m.id}/status`] = m.status;
        fieldOfKey[`markets/${m.id}/status`] = `body.markets[${i}].status`;
      }
      if (m.is_defective !== undefined) {
        changes[`markets/${m.id}/is_defective`] = m.is_defective;
        fieldOfKey[`markets/${m.id}/is_defective`] = `body.markets[${i}].is_defective`;
      }
      (m.odds ?? []).forEach((o, j) => {
        if (!Object.hasOwn(market.odds, o.id)) {
          throw validationError(
            `body.markets[${i}].odds[${j}].id`,
            `unknown odd "${o.id}" in market "${m.id}"`,
          );
        }
        for (const f of ['value', 'status', 'is_active', 'template'] as const) {
          if (o[f] === undefined) continue;
          const key = `markets/${m.id}/odds/${o.id}/${f}`;
          changes[key] = o[f];
          fieldOfKey[key] = `body.markets[${i}].odds[${j}].${f}`;
        }
      });
    });
    if (Object.keys(changes).length === 0) throw validationError('body.markets', 'nothing to change');
    await t.matchUpdate(input.id, changes, (k) => fieldOfKey[k] ?? `changes.${k}`);
  });
  return { id: input.id, version: versions.at(-1)! };
}
