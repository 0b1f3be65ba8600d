import type { BonusListQuery, InsuranceView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { findInsurance } from './bonuses.repo.js';
import type { BonusesDeps } from './deps.js';
import { listBonusPage } from './list-bonus-page.js';
import { insuranceView } from './views.js';

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
  return listBonusPage(
    deps,
    { table: 'insurance', noun: 'insurances', statuses: INSURANCE_STATUSES, view: insuranceView },
    input,
  );
}
