import { CALLBACK_PATHS } from '@bookie/contracts';
import type { Bet, BetRow } from '../../bets/index.js';
import { unsettleBody } from '../../bets/index.js';
import { addMoneyMove, type LedgerEntry, type MoneyMoves } from '../ledger/money-moves.js';

/** What a settle or unsettle is recorded with: the ledger row's fields that do not depend on the move. */
export type MoveContext = Pick<LedgerEntry, 'betId' | 'whiteLabelId' | 'currency' | 'cause' | 'at'>;

/**
 * Unsettles a settled bet (spec 01 `/bet/unsettle`): the partner takes back what the settle paid (`settle_amount`,
 * decimal string), so the bet's `/bet/unsettle` callback and its ledger row go into `moves`, and `next` — the bet
 * as it will be stored — becomes `unsettled` with no payout. Alone it is the unsettle of a bet whose results no
 * longer stand (status 4); followed by a settle it is a resettlement (a different result, DECISIONS D10).
 */
export function unsettle(bet: Bet, next: BetRow, moves: MoneyMoves, ctx: MoveContext): void {
  const amount = bet.row.settle_amount ?? '0';
  next.settlement_seq += 1;
  addMoneyMove(
    moves,
    {
      whiteLabelId: bet.row.white_label_id,
      betId: bet.row.id,
      foreignParams: bet.row.foreign_params,
      path: CALLBACK_PATHS.unsettle,
      body: unsettleBody(bet, amount),
    },
    { ...ctx, seq: next.settlement_seq, kind: 'unsettle', amount, settleType: null, payout: null },
  );
  next.state = 'unsettled';
  next.payout = null;
  next.settle_amount = null;
  next.settle_type = null;
  next.settle_status = null;
  next.settled_at = null;
}
