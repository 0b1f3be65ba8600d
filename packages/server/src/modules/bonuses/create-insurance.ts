import type { CreateInsuranceBody, InsuranceView } from '@bookie/contracts';
import { parseConditions, parseValueRange } from '@bookie/core';
import { findInsurance, insertInsurance } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { type Created, createIdempotently } from './idempotence.js';
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
  const kind = { table: 'insurance', name: 'insurance', find: findInsurance, view: insuranceView } as const;
  return createIdempotently({ db, now }, kind, whiteLabelId, body, async (id, hash) => {
    const wl = await deps.whiteLabels.get(whiteLabelId);
    assertOfferedCurrency(wl, body.currency_code, 'body.currency_code');
    parseConditions(body.conditions, { field: 'body.conditions' });
    if (body.stake_amount_range)
      parseValueRange(body.stake_amount_range, 'body.stake_amount_range', { maxDecimals: 6 });
    const payout = parsePayout(body);
    const expiresAt = parseExpiry(body.expires_at, now, 'body.expires_at');
    const at = new Date(now);
    return insertInsurance(db, {
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
  });
}
