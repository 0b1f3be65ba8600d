import type { InsuranceView, UpdateInsuranceBody } from '@bookie/contracts';
import { DomainError, parseConditions, parseValueRange } from '@bookie/core';
import type { InsuranceTable, Updateable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { findInsurance, updateInsurance } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { parsePayout } from './insurance-rule.js';
import { assertOfferedCurrency, parseExpiry } from './parse-input.js';
import { decimal12, insuranceView, money6 } from './views.js';

/**
 * Updates an available bet insurance (spec 01 `POST /insurance/update`): any field of the create but the player.
 * The payout rule is checked whole after the change; switching `type` drops the other type's fields. `null` removes
 * `expires_at`, `stake_amount_range` or `max_amount`. An insurance applied to a bet, paid, declined or cancelled
 * cannot change.
 *
 * @throws DomainError not_found (unknown, or another white label's), conflict naming the status, validation_error.
 */
export async function updateInsuranceRecord(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: UpdateInsuranceBody },
): Promise<InsuranceView> {
  const { body } = input;
  const now = deps.clock.now();
  const wl = body.currency_code !== undefined ? await deps.whiteLabels.get(input.whiteLabelId) : undefined;
  if (wl && body.currency_code) assertOfferedCurrency(wl, body.currency_code, 'body.currency_code');
  if (body.conditions !== undefined) parseConditions(body.conditions, { field: 'body.conditions' });
  if (body.stake_amount_range)
    parseValueRange(body.stake_amount_range, 'body.stake_amount_range', { maxDecimals: 6 });
  const expiresAt =
    body.expires_at !== undefined ? parseExpiry(body.expires_at, now, 'body.expires_at') : undefined;
  return inTransaction(deps.database.db, async (tx) => {
    const row = await findInsurance(tx, input.whiteLabelId, body.id, true);
    if (!row) throw new DomainError('not_found', `no insurance ${body.id}`, { field: 'body.id' });
    if (row.status !== 'available') {
      throw new DomainError(
        'conflict',
        `insurance ${body.id} is ${row.status}; only an available insurance can change`,
        {
          field: 'body.id',
          status: row.status,
        },
      );
    }
    const type = body.type ?? row.payout_type;
    const same = type === row.payout_type;
    const payout = parsePayout({
      type,
      amount: body.amount ?? (same && row.amount !== null ? money6(row.amount) : undefined),
      percent: body.percent ?? (same && row.percent !== null ? decimal12(row.percent) : undefined),
      max_amount:
        body.max_amount !== undefined
          ? body.max_amount
          : same && row.max_amount !== null
            ? decimal12(row.max_amount)
            : undefined,
      strategies: {
        ...(body.strategies?.type !== undefined ? { type: body.strategies.type } : {}),
        max_odds_count_lose: body.strategies?.max_odds_count_lose ?? row.max_odds_count_lose ?? undefined,
      },
    });
    const set: Updateable<InsuranceTable> = { ...payout, updated_at: new Date(now) };
    if (body.currency_code !== undefined) set.currency_code = body.currency_code;
    if (body.conditions !== undefined) set.conditions = JSON.stringify(body.conditions);
    if (body.stake_amount_range !== undefined) {
      set.stake_amount_range =
        body.stake_amount_range === null ? null : JSON.stringify(body.stake_amount_range);
    }
    if (expiresAt !== undefined) set.expires_at = expiresAt;
    if (body.foreign_params !== undefined) set.foreign_params = JSON.stringify(body.foreign_params);
    await updateInsurance(tx, row.id, set);
    return insuranceView((await findInsurance(tx, input.whiteLabelId, row.id)) as typeof row, now);
  });
}
