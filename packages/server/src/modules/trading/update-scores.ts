import type { UpdateScoresBody } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import { runTradingCommand, type TradingDeps } from './writer.js';

/**
 * Updates scores (spec 02 "Competitor" scores): one `match_update` with
 * `fixture/competitors/<competitor>/scores/<score>` paths, each a whole score.
 *
 * @throws DomainError validation_error naming the field: an unknown competitor
 *   (`body.competitors.<id>`), a score whose `id` differs from its key; unknown event: `id`.
 */
export async function updateScores(
  deps: TradingDeps,
  input: { id: string; body: UpdateScoresBody },
): Promise<{ id: string; version: bigint }> {
  const { versions } = await runTradingCommand(deps, async (t) => {
    const event = await t.get(input.id);
    const changes: Record<string, unknown> = {};
    const fieldOfKey: Record<string, string> = {};
    for (const [cid, scores] of Object.entries(input.body.competitors)) {
      if (!Object.hasOwn(event.fixture.competitors, cid)) {
        throw validationError(`body.competitors.${cid}`, `unknown competitor "${cid}"`);
      }
      for (const [sid, score] of Object.entries(scores)) {
        if (score.id !== sid) {
          throw validationError(`body.competitors.${cid}.${sid}.id`, `must equal its key "${sid}"`);
        }
        const key = `fixture/competitors/${cid}/scores/${sid}`;
        changes[key] = score;
        fieldOfKey[key] = `body.competitors.${cid}.${sid}`;
      }
    }
    if (Object.keys(changes).length === 0) throw validationError('body.competitors', 'nothing to change');
    changes['fixture/updated_at'] = new Date(t.nowMs).toISOString();
    await t.matchUpdate(input.id, changes, (k) => fieldOfKey[k] ?? `changes.${k}`);
  });
  return { id: input.id, version: versions.at(-1)! };
}
