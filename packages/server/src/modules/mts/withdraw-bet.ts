import type { MtsBetWithdrawal, PartnerBet } from '@bookie/contracts';
import { DomainError, type Restriction } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { findBet, transitionBet } from '../bets/index.js';
import type { MtsDeps } from './deps.js';
import { getPartnerBet } from './partner-bet.js';

/** The reason a bet declined on the partner's side shows. */
export const PARTNER_DECLINED = 'partner_declined';

/**
 * The partner declined on its side a bet Bookie accepted (`DELETE /bets`): the bet ends declined (status 2, reason
 * `partner_declined`) and its exposure is released (by the bet state trigger), in one transaction; nothing is
 * settled or called back. A repeat answers the bet as it is.
 *
 * @throws DomainError not_found (no such reported bet); conflict once the bet is settled, cashed out or was never
 * accepted.
 */
export async function withdrawReportedBet(
  deps: MtsDeps,
  whiteLabelId: string,
  body: MtsBetWithdrawal,
): Promise<PartnerBet> {
  const db = deps.placement.database.db;
  await inTransaction(db, async (tx) => {
    const bet = await findBet(tx, whiteLabelId, body.bet_id, true);
    if (!bet || bet.row.source !== 'mts') {
      throw new DomainError('not_found', `no reported bet ${body.bet_id}`, { field: 'bet_id' });
    }
    const first = (bet.row.restrictions as Array<{ type?: string }>)[0];
    if (bet.row.state === 'declined' && first?.type === PARTNER_DECLINED) return;
    if (!['accepted', 'unsettled'].includes(bet.row.state)) {
      throw new DomainError('conflict', `bet ${body.bet_id} is ${bet.row.state}: it cannot be withdrawn`, {
        field: 'bet_id',
      });
    }
    await transitionBet(tx, bet.row.id, bet.row.state, 'declined', {
      restrictions: [
        {
          type: PARTNER_DECLINED,
          context: body.reason ? { reason: body.reason } : {},
        } as unknown as Restriction,
      ],
    });
  });
  return getPartnerBet(db, whiteLabelId, body.bet_id);
}
