import { formatMoney, parseDecimal, validationError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { RiskDeps } from './deps.js';
import { type GroupRow, readGroups, writeGroup } from './risk-group.repo.js';
import { type Actor, amount } from './risk-input.js';
import { auditRisk } from './risk-settings.repo.js';

const BUILT_IN_GROUPS = ['default', 'vip', 'restricted', 'blocked'];

/** A risk group as the APIs show it. */
export interface GroupView {
  name: string;
  stake_factor: string;
  max_payout_eur: string | null;
}

function groupView(g: GroupRow): GroupView {
  return {
    name: g.name,
    stake_factor: formatMoney(parseDecimal(g.stake_factor, { field: 'stake_factor', maxDecimals: 6 })),
    max_payout_eur:
      g.max_payout_eur === null
        ? null
        : formatMoney(parseDecimal(g.max_payout_eur, { field: 'max_payout_eur', maxDecimals: 6 })),
  };
}

/** Every risk group (D38). */
export async function listGroups(deps: Pick<RiskDeps, 'database'>): Promise<GroupView[]> {
  return (await readGroups(deps.database.db)).map(groupView);
}

/**
 * Creates or changes a risk group: its stake factor (≥ 0; 0 blocks) and the max payout in EUR it stands for (VIP
 * placement by `recommended_max_payout`; null: none). `blocked` keeps factor 0. Audited; effective at once here.
 *
 * @throws DomainError validation_error naming `name`, `stake_factor` or `max_payout_eur`.
 */
export async function setGroup(
  deps: Pick<RiskDeps, 'database' | 'book'>,
  input: { name: unknown; stake_factor: unknown; max_payout_eur?: unknown },
  actor: Actor,
): Promise<GroupView[]> {
  const name = input.name;
  if (typeof name !== 'string' || !/^[a-z0-9_-]{1,40}$/.test(name)) {
    throw validationError('name', 'must be 1–40 of a-z, 0-9, _ and -');
  }
  const factor = amount(input.stake_factor, 'stake_factor');
  if (name === 'blocked' && parseDecimal(factor, { field: 'stake_factor' }).num !== 0n) {
    throw validationError('stake_factor', 'the blocked group keeps factor 0');
  }
  const maxPayout =
    input.max_payout_eur === undefined || input.max_payout_eur === null
      ? null
      : amount(input.max_payout_eur, 'max_payout_eur');
  if (maxPayout !== null && parseDecimal(maxPayout, { field: 'max_payout_eur' }).num <= 0n) {
    throw validationError('max_payout_eur', 'must be positive');
  }
  await inTransaction(deps.database.db, async (tx) => {
    await writeGroup(tx, { name, stakeFactor: factor, maxPayoutEur: maxPayout });
    await auditRisk(tx, {
      actor,
      action: 'risk.group',
      subject: `risk_group:${name}`,
      details: { stake_factor: factor, max_payout_eur: maxPayout, built_in: BUILT_IN_GROUPS.includes(name) },
    });
  });
  deps.book.invalidate();
  return listGroups(deps);
}
