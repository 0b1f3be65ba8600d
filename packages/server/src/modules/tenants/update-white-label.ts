import { UpdateWhiteLabelBody, type WhiteLabelView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { whiteLabelChanged } from './cached-white-labels.js';
import type { Actor, TenancyDeps } from './deps.js';
import { audit, listCredentials, lockWhiteLabel, updateWhiteLabel as updateRow } from './tenants.repo.js';
import { checkSchema } from './validate.js';
import { toChanges, toWhiteLabel, whiteLabelView } from './white-label.js';

/**
 * Changes the given fields of a white label (name, mode, currencies, callback URL, limits, bet interval and
 * delay, allowlist, signing on/off). A change applies to this process's next request, and to other processes' within
 * their white label caches' time to live.
 *
 * @throws DomainError not_found; validation_error naming the field.
 */
export async function updateWhiteLabel(
  deps: TenancyDeps,
  input: { id: string; changes: UpdateWhiteLabelBody },
  actor: Actor = 'admin-api',
): Promise<WhiteLabelView> {
  checkSchema(UpdateWhiteLabelBody, input.changes);
  const now = new Date(deps.clock.now());
  const view = await inTransaction(deps.database.db, async (tx) => {
    const current = await lockWhiteLabel(tx, input.id);
    if (!current) throw new DomainError('not_found', `white label ${input.id} not found`);
    const changes = toChanges(input.changes, toWhiteLabel(current));
    const row = Object.keys(changes).length > 0 ? await updateRow(tx, input.id, changes, now) : current;
    if (!row) throw new DomainError('not_found', `white label ${input.id} not found`);
    await audit(tx, {
      at: now,
      actor,
      action: 'white_label.update',
      subject: `white_label:${input.id}`,
      details: JSON.stringify(input.changes),
    });
    const credentials = await listCredentials(tx, input.id);
    return whiteLabelView(toWhiteLabel(row), { withSecret: true, credentials, now: now.getTime() });
  });
  whiteLabelChanged(input.id);
  return view;
}
