import type { FreebetView, UpdateFreebetBody } from '@bookie/contracts';
import { DomainError, formatMoney, parseConditions, parseMoney } from '@bookie/core';
import type { FreebetTable, Updateable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { findFreebet, updateFreebet } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { parseExpiry } from './parse-input.js';
import { freebetView } from './views.js';

/**
 * Updates an available freebet (spec 01 `POST /freebet/update`): `amount`, `expires_at` (null removes it; an expired
 * freebet may be given a new expiry), `conditions`, `foreign_params`. A freebet reserved for a bet, used or cancelled
 * cannot change.
 *
 * @throws DomainError not_found (unknown, or another white label's), conflict naming the status, validation_error.
 */
export async function updateFreebetRecord(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: UpdateFreebetBody },
): Promise<FreebetView> {
  const { body } = input;
  const now = deps.clock.now();
  const set: Updateable<FreebetTable> = { updated_at: new Date(now) };
  if (body.amount !== undefined)
    set.amount = formatMoney(parseMoney(body.amount, 'body.amount', { allowZero: false }));
  if (body.conditions !== undefined) {
    parseConditions(body.conditions, { field: 'body.conditions', required: true });
    set.conditions = JSON.stringify(body.conditions);
  }
  if (body.expires_at !== undefined) set.expires_at = parseExpiry(body.expires_at, now, 'body.expires_at');
  if (body.foreign_params !== undefined) set.foreign_params = JSON.stringify(body.foreign_params);
  return inTransaction(deps.database.db, async (tx) => {
    const row = await findFreebet(tx, input.whiteLabelId, body.id, true);
    if (!row) throw new DomainError('not_found', `no freebet ${body.id}`, { field: 'body.id' });
    if (row.status !== 'available') {
      throw new DomainError(
        'conflict',
        `freebet ${body.id} is ${row.status}; only an available freebet can change`,
        {
          field: 'body.id',
          status: row.status,
        },
      );
    }
    await updateFreebet(tx, row.id, set);
    return freebetView((await findFreebet(tx, input.whiteLabelId, row.id)) as typeof row, now);
  });
}
