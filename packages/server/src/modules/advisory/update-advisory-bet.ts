import type { AdvisoryBet, AdvisoryBetUpdate, AdvisoryVersions } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { findAdvisoryBet, listAdvisoryVersions, writeAdvisoryVersion } from './advisory.repo.js';
import { canonicalJson, updatedAdvisoryBet } from './advisory-view.js';
import type { AdvisoryDeps } from './deps.js';

/** Settled states of a bet (settled, refunded, refunded manually): going back to accepted from them is refused. */
const SETTLED = [3, 5, 6];

/**
 * `PUT /bets/advisory/{bet_id}`: the partner reports the whole new state of an advisory bet (every selection status,
 * cash-out or bet status change). It replaces the stored state — a selection missing from the update is removed —
 * and is kept as a new version; a state equal to the stored one changes nothing. Invalid parameters are a 400 (a
 * retry cannot help).
 *
 * @throws DomainError not_found (unknown bet id); validation_error naming the field; conflict when a settled bet
 * would go back to accepted.
 */
export async function updateAdvisoryBet(
  deps: AdvisoryDeps,
  whiteLabelId: string,
  betId: string,
  body: AdvisoryBetUpdate,
): Promise<{ bet: AdvisoryBet }> {
  const p = deps.placement;
  return inTransaction(p.database.db, async (tx) => {
    const stored = await findAdvisoryBet(tx, whiteLabelId, betId, true);
    if (!stored) throw new DomainError('not_found', `no advisory bet ${betId}`, { field: 'bet_id' });
    const before = stored.state as Omit<AdvisoryBet, 'version'>;
    const next = updatedAdvisoryBet(before, body);
    if (SETTLED.includes(before.status.code) && next.status.code === 1) {
      throw new DomainError('conflict', `bet ${betId} is settled: it cannot go back to accepted`, {
        field: 'status.code',
      });
    }
    if (canonicalJson(next) === canonicalJson(before)) return { bet: { ...before, version: stored.version } };
    const version = stored.version + 1;
    await writeAdvisoryVersion(tx, {
      whiteLabelId,
      bet: next,
      playerId: '',
      version,
      restrictions: stored.restrictions,
      at: new Date(p.clock.now()),
    });
    return { bet: { ...next, version } };
  });
}

/**
 * Every state an advisory bet was reported in, oldest first.
 *
 * @throws DomainError not_found (unknown bet id).
 */
export async function advisoryBetVersions(
  deps: AdvisoryDeps,
  whiteLabelId: string,
  betId: string,
): Promise<AdvisoryVersions> {
  const rows = await listAdvisoryVersions(deps.placement.database.db, whiteLabelId, betId);
  if (rows.length === 0) throw new DomainError('not_found', `no advisory bet ${betId}`, { field: 'bet_id' });
  return {
    items: rows.map((r) => ({
      version: r.version,
      at: new Date(r.at).toISOString(),
      state: { ...(r.state as Omit<AdvisoryBet, 'version'>), version: r.version },
    })),
  };
}
