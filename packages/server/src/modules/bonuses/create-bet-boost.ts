import type { BetBoostView, CreateBetBoostBody } from '@bookie/contracts';
import { formatMoney, parseBoostMultiplier, parseConditions } from '@bookie/core';
import { findBetBoost, insertBetBoost } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { type Created, createIdempotently } from './idempotence.js';
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
  const kind = { table: 'bet_boost', name: 'bet boost', find: findBetBoost, view: betBoostView } as const;
  return createIdempotently({ db, now }, kind, whiteLabelId, body, async (id, hash) => {
    const multiplier = parseBoostMultiplier(body.multiplier, 'body.multiplier');
    parseConditions(body.conditions, { field: 'body.conditions' });
    const expiresAt = parseExpiry(body.expires_at, now, 'body.expires_at');
    const at = new Date(now);
    return insertBetBoost(db, {
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
  });
}
