import type { BonusListQuery, InsuranceView } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { findInsurance, listBonuses } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { decodeCursor, encodeCursor, insuranceView, limitOf } from './views.js';

/** One bet insurance of the white label. @throws DomainError not_found (unknown, or another white label's). */
export async function getInsurance(
  deps: BonusesDeps,
  input: { whiteLabelId: string; id: string },
): Promise<InsuranceView> {
  const row = await findInsurance(deps.database.db, input.whiteLabelId, input.id);
  if (!row) throw new DomainError('not_found', `no insurance ${input.id}`, { field: 'id' });
  return insuranceView(row, deps.clock.now());
}

const INSURANCE_STATUSES = ['available', 'applied', 'paid', 'declined', 'cancelled', 'expired'];

/** The white label's insurances, newest first, optionally of one player and in one status; pages by `cursor`. */
export async function listInsurances(
  deps: BonusesDeps,
  input: { whiteLabelId: string; query: BonusListQuery },
): Promise<{ items: InsuranceView[]; next_cursor: string | null }> {
  const { query } = input;
  const now = deps.clock.now();
  const limit = limitOf(query.limit);
  const status = query.status;
  if (status !== undefined && !INSURANCE_STATUSES.includes(status)) {
    throw validationError('querystring.status', `must be one of ${INSURANCE_STATUSES.join(', ')}`);
  }
  const at = new Date(now);
  const rows = await listBonuses(deps.database.db, 'insurance', {
    whiteLabelId: input.whiteLabelId,
    ...(query.player_id !== undefined ? { playerId: query.player_id } : {}),
    ...(status === undefined
      ? {}
      : status === 'expired'
        ? { statuses: ['available'], expired: { at, value: true } }
        : status === 'available'
          ? { statuses: ['available'], expired: { at, value: false } }
          : { statuses: [status] }),
    ...(query.cursor !== undefined ? { after: decodeCursor(query.cursor) } : {}),
    limit,
  });
  const last = rows.at(-1);
  return {
    items: rows.map((r) => insuranceView(r, now)),
    next_cursor: rows.length === limit && last ? encodeCursor(last) : null,
  };
}
