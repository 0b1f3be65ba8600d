import { randomUUID } from 'node:crypto';
import type { CreateFreebetBody, FreebetView } from '@bookie/contracts';
import { DomainError, formatMoney, parseConditions, parseMoney } from '@bookie/core';
import { findByIdempotenceId, findFreebet, insertFreebet } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { assertSameRequest, requestHash } from './idempotence.js';
import { assertOfferedCurrency, parseExpiry } from './parse-input.js';
import { freebetView } from './views.js';

/** Result of a create: 201 with a new record, or 200 with the record an earlier request with the same key made. */
export interface Created<T> {
  status: 200 | 201;
  record: T;
}

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
  const hash = requestHash(body);
  const db = deps.database.db;
  if (body.idempotence_id !== undefined) {
    const seen = await replay(deps, whiteLabelId, body.idempotence_id, hash);
    if (seen) return seen;
  }
  const wl = await deps.whiteLabels.get(whiteLabelId);
  assertOfferedCurrency(wl, body.currency_code, 'body.currency_code');
  const amount = parseMoney(body.amount, 'body.amount', { allowZero: false });
  parseConditions(body.conditions, { field: 'body.conditions', required: true });
  const expiresAt = parseExpiry(body.expires_at, now, 'body.expires_at');
  const id = randomUUID();
  const at = new Date(now);
  const inserted = await insertFreebet(db, {
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
  if (!inserted && body.idempotence_id !== undefined) {
    // a concurrent request with the same key won the insert
    const seen = await replay(deps, whiteLabelId, body.idempotence_id, hash);
    if (seen) return seen;
  }
  const row = await findFreebet(db, whiteLabelId, id);
  if (!row) throw new DomainError('internal_error', 'freebet was not stored');
  return { status: 201, record: freebetView(row, now) };
}

async function replay(
  deps: BonusesDeps,
  whiteLabelId: string,
  idempotenceId: string,
  hash: string,
): Promise<Created<FreebetView> | undefined> {
  const db = deps.database.db;
  const seen = await findByIdempotenceId(db, 'freebet', whiteLabelId, idempotenceId);
  if (!seen) return undefined;
  assertSameRequest(seen.request_hash, hash, idempotenceId);
  const row = await findFreebet(db, whiteLabelId, seen.id);
  return row ? { status: 200, record: freebetView(row, deps.clock.now()) } : undefined;
}
