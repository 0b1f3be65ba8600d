import type { CreateFreebetBody, FreebetView } from '@bookie/contracts';
import { formatMoney, parseConditions, parseMoney } from '@bookie/core';
import { findFreebet, insertFreebet } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { type Created, createIdempotently } from './idempotence.js';
import { assertOfferedCurrency, parseExpiry } from './parse-input.js';
import { freebetView } from './views.js';

/**
 * Creates a freebet for a player (spec 01 "Freebet conditions"): bound to one currency (one the white label
 * offers), a positive `amount` (the stake of the bet that uses it), at least one condition (spec 01 bet_details form,
 * checked by core: a condition that does not apply to its bet type is refused), an optional future `expires_at`.
 * Idempotent on `idempotence_id`: a repeat with the same body returns the first freebet (200); another body → 409.
 *
 * @throws DomainError validation_error naming the field (`body.amount`, `body.conditions[0]…`), conflict.
 */
export async function createFreebet(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: CreateFreebetBody },
): Promise<Created<FreebetView>> {
  const { body, whiteLabelId } = input;
  const now = deps.clock.now();
  const db = deps.database.db;
  const kind = { table: 'freebet', name: 'freebet', find: findFreebet, view: freebetView } as const;
  return createIdempotently({ db, now }, kind, whiteLabelId, body, async (id, hash) => {
    const wl = await deps.whiteLabels.get(whiteLabelId);
    assertOfferedCurrency(wl, body.currency_code, 'body.currency_code');
    const amount = parseMoney(body.amount, 'body.amount', { allowZero: false });
    parseConditions(body.conditions, { field: 'body.conditions', required: true });
    const expiresAt = parseExpiry(body.expires_at, now, 'body.expires_at');
    const at = new Date(now);
    return insertFreebet(db, {
      id,
      white_label_id: whiteLabelId,
      player_id: body.player_id,
      currency_code: body.currency_code,
      amount: formatMoney(amount),
      expires_at: expiresAt,
      conditions: JSON.stringify(body.conditions),
      foreign_params: JSON.stringify(body.foreign_params ?? {}),
      status: 'available',
      idempotence_id: body.idempotence_id ?? null,
      request_hash: hash,
      created_at: at,
      updated_at: at,
    });
  });
}
