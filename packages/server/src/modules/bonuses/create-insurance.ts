import { randomUUID } from 'node:crypto';
import type { CreateInsuranceBody, InsuranceView } from '@bookie/contracts';
import { DomainError, parseConditions, parseValueRange } from '@bookie/core';
import { findByIdempotenceId, findInsurance, insertInsurance } from './bonuses.repo.js';
import type { Created } from './create-freebet.js';
import type { BonusesDeps } from './deps.js';
import { assertSameRequest, requestHash } from './idempotence.js';
import { parsePayout } from './insurance-rule.js';
import { assertOfferedCurrency, parseExpiry } from './parse-input.js';
import { insuranceView } from './views.js';

/**
 * Creates a bet insurance for a player (spec 01 "Bet insurance conditions"): bound to one currency, with
 * optional conditions (spec 01 bet_details form; none = any bet), an optional `stake_amount_range`, the payout rule
 * (`type` amount | percent, `amount`, `percent` up to 12 decimals, `max_amount`, `strategies.max_odds_count_lose`),
 * an optional future `expires_at` and `foreign_params` returned as sent. Idempotent on `idempotence_id`.
 *
 * @throws DomainError validation_error naming the field, conflict (idempotence_id reused with another body).
 */
export async function createInsurance(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: CreateInsuranceBody },
): Promise<Created<InsuranceView>> {
  const { body, whiteLabelId } = input;
  const now = deps.clock.now();
  const db = deps.database.db;
  const hash = requestHash(body);
  const replay = async (): Promise<Created<InsuranceView> | undefined> => {
    if (body.idempotence_id === undefined) return undefined;
    const seen = await findByIdempotenceId(db, 'insurance', whiteLabelId, body.idempotence_id);
    if (!seen) return undefined;
    assertSameRequest(seen.request_hash, hash, body.idempotence_id);
    const row = await findInsurance(db, whiteLabelId, seen.id);
    return row ? { status: 200, record: insuranceView(row, now) } : undefined;
  };
  const seen = await replay();
  if (seen) return seen;
  const wl = await deps.whiteLabels.get(whiteLabelId);
  assertOfferedCurrency(wl, body.currency_code, 'body.currency_code');
  parseConditions(body.conditions, { field: 'body.conditions' });
  if (body.stake_amount_range)
    parseValueRange(body.stake_amount_range, 'body.stake_amount_range', { maxDecimals: 6 });
  const payout = parsePayout(body);
  const expiresAt = parseExpiry(body.expires_at, now, 'body.expires_at');
  const id = randomUUID();
  const at = new Date(now);
  const inserted = await insertInsurance(db, {
    id,
    white_label_id: whiteLabelId,
    player_id: body.player_id,
    currency_code: body.currency_code,
    expires_at: expiresAt,
    conditions: JSON.stringify(body.conditions ?? []),
    stake_amount_range: body.stake_amount_range ? JSON.stringify(body.stake_amount_range) : null,
    ...payout,
    foreign_params: JSON.stringify(body.foreign_params ?? {}),
    status: 'available',
    idempotence_id: body.idempotence_id ?? null,
    request_hash: hash,
    created_at: at,
    updated_at: at,
  });
  if (!inserted) {
    const again = await replay();
    if (again) return again;
  }
  const row = await findInsurance(db, whiteLabelId, id);
  if (!row) throw new DomainError('internal_error', 'insurance was not stored');
  return { status: 201, record: insuranceView(row, now) };
}
