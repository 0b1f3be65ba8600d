import type { MtsBetPatch, PartnerBet } from '@bookie/contracts';
import { DomainError, type OddStatus, parseDecimal, sub, validationError } from '@bookie/core';
import { findBet, setForeignCashedOut, transitionBet } from '../bets/index.js';
import { rewriteExposure } from '../cash-out/index.js';
import { foreignKey, refreshBets, refreshTransition, remainingStake } from '../settlement/index.js';
import type { MtsDeps } from './deps.js';
import { mergeForeignCashOutOrders } from './foreign-cash-out.js';
import { loadForeignCashOutOrders, upsertForeignCashOutOrders } from './mts.repo.js';
import { getPartnerBet } from './partner-bet.js';

/** What a `PATCH /bets/{bet_id}` did. */
export interface UpdateResult {
  /** `settled`, `unsettled`, `resettled`, `cashed_out` or `none`. */
  transition: 'settled' | 'unsettled' | 'resettled' | 'cashed_out' | 'none';
  callbacks: number;
  bet: PartnerBet;
}

/**
 * The partner reports the final statuses of a mixed combo's foreign selections and its foreign cash-out orders
 * (`PATCH /bets/{bet_id}`). In one transaction the statuses and orders are stored and the bet is settled as
 * settlement does it: once every platform selection is resulted by the feed and every foreign one by the partner
 * it settles (`/bet/settle` to the partner); a later change of a foreign status unsettles and settles again. Accepted
 * foreign cash-outs reduce the stake settlement pays on; an accepted amount equal to the stake cashes the bet out
 * (no settlement, exposure released).
 *
 * @throws DomainError not_found (no such bet); validation_error naming the unknown foreign id or the bad order
 * field; conflict when the bet is not an accepted or settled reported bet, or a decided order would change.
 */
export async function updateReportedBet(
  deps: MtsDeps,
  whiteLabelId: string,
  betId: string,
  body: MtsBetPatch,
): Promise<UpdateResult> {
  const db = deps.placement.database.db;
  const bet = await findBet(db, whiteLabelId, betId);
  if (!bet) throw new DomainError('not_found', `no bet ${betId}`, { field: 'bet_id' });
  if (bet.row.source !== 'mts') {
    throw new DomainError('conflict', `bet ${betId} was not reported with POST /bets`, { field: 'bet_id' });
  }
  if (!['accepted', 'settled', 'unsettled'].includes(bet.row.state)) {
    throw new DomainError('conflict', `bet ${betId} is ${bet.row.state}`, { field: 'bet_id' });
  }
  const known = new Set(bet.selections.flatMap((s) => (s.foreign_id ? [s.foreign_id] : [])));
  const foreign = new Map<string, { status: OddStatus; reason: string }>();
  (body.foreign_selections ?? []).forEach((f, i) => {
    if (!known.has(f.id)) {
      throw validationError(
        `foreign_selections[${i}].id`,
        `${f.id} is not a foreign selection of bet ${betId}`,
      );
    }
    foreign.set(foreignKey(bet.row.id, f.id), {
      status: f.status as OddStatus,
      reason: f.status_reason ?? '',
    });
  });
  let cashedOut = false;
  const applied = await refreshBets(deps.settlement, [bet.row.id], {
    cause: 'partner:foreign_results',
    foreign,
    // the orders are merged with the stored ones under the bet's lock, so concurrent reports cannot pass the stake
    fence: async (tx) => {
      const locked = await findBet(tx, whiteLabelId, betId, true);
      if (!locked || !['accepted', 'settled', 'unsettled'].includes(locked.row.state)) {
        throw new DomainError('conflict', `bet ${betId} is ${locked?.row.state ?? 'gone'}`, {
          field: 'bet_id',
        });
      }
      const dec = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });
      // foreign orders take what the platform's own cash-outs left of the stake: Σ of every order ≤ stake
      const room = sub(dec(locked.row.stake, 'stake'), dec(locked.row.cashed_out_stake, 'cashed_out_stake'));
      const stored = (await loadForeignCashOutOrders(tx, [locked.row.id])).get(locked.row.id) ?? [];
      const orders = mergeForeignCashOutOrders(room, stored, body.foreign_cash_out_orders ?? []);
      if (orders.newlyAccepted && locked.row.state === 'settled') {
        throw new DomainError('conflict', `bet ${betId} is settled: it cannot be cashed out`, {
          field: 'foreign_cash_out_orders',
        });
      }
      await upsertForeignCashOutOrders(tx, locked.row.id, orders.written);
      await setForeignCashedOut(tx, locked.row.id, orders.acceptedAmount);
      // the whole stake cashed out on the partner's side: the bet ends cashed out (exposure released), unsettled
      if (orders.full) {
        cashedOut =
          (locked.row.state === 'accepted' || locked.row.state === 'unsettled') &&
          (await transitionBet(tx, locked.row.id, locked.row.state, 'cashed_out')) !== undefined;
      } else if (
        orders.newlyAccepted &&
        (locked.row.state === 'accepted' || locked.row.state === 'unsettled')
      ) {
        // a partial one: the bet's exposure stands for the stake still in play, as for the platform's own orders
        const inPlay = remainingStake({ ...locked.row, foreign_cashed_out: orders.acceptedAmount });
        await rewriteExposure(tx, locked.row.id, inPlay, true);
      }
    },
  });
  if (cashedOut)
    return { transition: 'cashed_out', callbacks: 0, bet: await getPartnerBet(db, whiteLabelId, betId) };
  return {
    transition: refreshTransition(applied),
    callbacks: applied.callbacks,
    bet: await getPartnerBet(db, whiteLabelId, betId),
  };
}
