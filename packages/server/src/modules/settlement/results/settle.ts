import { CALLBACK_PATHS, type SportEvent } from '@bookie/contracts';
import type { Bet } from '../../bets/index.js';
import { settleBody } from '../../bets/index.js';
import { addMoneyMove, type MoneyMoves } from '../ledger/money-moves.js';
import type { Outcome } from './decide.js';
import type { MoveContext } from './unsettle.js';

/**
 * Settles a bet (spec 01 `/bet/settle`) with its computed outcome: the `/bet/settle` callback (amount and settle
 * type, decimal strings) and its ledger row go into `moves`, and `after.row` — the bet as it will be stored —
 * becomes `settled` with the payout. Settle callbacks describe the selections' sport events as `currentEvent`
 * sees them now, when given.
 */
export function settle(
  after: Bet,
  outcome: Outcome,
  moves: MoneyMoves,
  ctx: MoveContext,
  currentEvent?: (sportEventId: string) => SportEvent | undefined,
): void {
  const next = after.row;
  addMoneyMove(
    moves,
    {
      whiteLabelId: next.white_label_id,
      betId: next.id,
      foreignParams: next.foreign_params,
      path: CALLBACK_PATHS.settle,
      body: settleBody(
        after,
        { settleAmount: outcome.settleAmount, settleType: outcome.settleType, restrictions: [] },
        currentEvent,
      ),
    },
    {
      ...ctx,
      seq: next.settlement_seq + 1,
      kind: 'settle',
      amount: outcome.settleAmount,
      settleType: outcome.settleType,
      payout: outcome.payout,
    },
  );
  next.settlement_seq += 1;
  next.state = 'settled';
  next.payout = outcome.payout;
  next.settle_amount = outcome.settleAmount;
  next.settle_type = outcome.settleType;
  next.settle_status = outcome.settleStatus;
  next.settled_at = ctx.at;
}
