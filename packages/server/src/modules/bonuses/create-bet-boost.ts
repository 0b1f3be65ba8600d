import { randomUUID } from 'node:crypto';
import type { BetBoostView, CreateBetBoostBody } from '@bookie/contracts';
import { DomainError, formatMoney, parseBoostMultiplier, parseConditions } from '@bookie/core';
import { findBetBoost, findByIdempotenceId, insertBetBoost } from './bonuses.repo.js';
import type { Created } from './create-freebet.js';
import type { BonusesDeps } from './deps.js';
import { assertSameRequest, requestHash } from './idempotence.js';
import { parseExpiry } from './parse-input.js';
import { betBoostView } from './views.js';

/**
 * Creates a bet boost (`POST /bet-boosts`; DECISIONS D19): a multiplier on the total odds (above 1, at most
 * 100, 6 decimals) for `quantity` bets of the white label's players, or of one player, under optional conditions
 * (spec 01 bet_details form; none = any bet), until an optional `expires_at`. `remaining_quantity` starts at
 * `quantity`. Idempotent on `idempotence_id`.
 *
 * @throws DomainError validation_error naming the field (`body.multiplier`, `body.conditions[0]…`), conflict.
 */
export async function createBetBoost(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: CreateBetBoostBody },
): Promise<Created<BetBoostView>> {
  const { body, whiteLabelId } = input;
  const now = deps.clock.now();
  const db = deps.database.db;
  const hash = requestHash(body);
  const replay = async (): Promise<Created<BetBoostView> | undefined> => {
    if (body.idempotence_id === undefined) return undefined;
    const seen = await findByIdempotenceId(db, 'bet_boost', whiteLabelId, body.idempotence_id);
    if (!seen) return undefined;
    assertSameRequest(seen.request_hash, hash, body.idempotence_id);
    const row = await findBetBoost(db, whiteLabelId, seen.id);
    return row ? { status: 200, record: betBoostView(row, now) } : undefined;
  };
  const seen = await replay();
  if (seen) return seen;
  const multiplier = parseBoostMultiplier(body.multiplier, 'body.multiplier');
  parseConditions(body.conditions, { field: 'body.conditions' });
  const expiresAt = parseExpiry(body.expires_at, now, 'body.expires_at');
  const id = randomUUID();
  const at = new Date(now);
  const inserted = await insertBetBoost(db, {
    id,
    white_label_id: whiteLabelId,
    player_id: body.player_id ?? null,
    name: body.name ?? '',
    multiplier: formatMoney(multiplier),
    conditions: JSON.stringify(body.conditions ?? []),
    quantity: body.quantity,
    remaining_quantity: body.quantity,
    expires_at: expiresAt,
    foreign_params: JSON.stringify(body.foreign_params ?? {}),
    idempotence_id: body.idempotence_id ?? null,
    request_hash: hash,
    created_at: at,
    updated_at: at,
  });
  if (!inserted) {
    const again = await replay();
    if (again) return again;
  }
  const row = await findBetBoost(db, whiteLabelId, id);
  if (!row) throw new DomainError('internal_error', 'bet boost was not stored');
  return { status: 201, record: betBoostView(row, now) };
}
