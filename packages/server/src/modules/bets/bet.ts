import type { BetType } from '@bookie/core';
import { BET_STATUS } from '@bookie/core';
import type { BetSelectionTable, BetState, BetTable, Selectable } from '../../db/schema.js';

/** A bet row as stored. */
export type BetRow = Selectable<BetTable>;
/** A selection row as stored. */
export type SelectionRow = Selectable<BetSelectionTable>;

/** A bet with its selections, in bet order. */
export interface Bet {
  row: BetRow;
  selections: SelectionRow[];
}

/** The facts of a sport event a selection carries into callbacks (spec 01 "Bet odd" meta), captured at placement. */
export interface EventInfo {
  provider_id: string;
  sport_id: string;
  tournament_id: string;
  market_type: string;
  state: 'live' | 'prematch';
  start_time: string;
  competitors: Array<{ id: string; type: 1 | 2 }>;
}

/**
 * Bet status codes of the APIs (DECISIONS D6): 1 accepted, 2 declined, 3 settled, 4 unsettled, 5 refunded,
 * 6 refunded manually, 7 cashed out, 10 place error, 11 force_decline. `hold_requested` (still placing) has no
 * code of its own and shows as 0.
 */
export function betStatusCode(row: Pick<BetRow, 'state' | 'settle_type' | 'settle_status'>): number {
  switch (row.state) {
    case 'hold_requested':
      return 0;
    case 'accepted':
      return BET_STATUS.ACCEPTED;
    case 'declined':
      return BET_STATUS.DECLINED;
    case 'place_error':
      return BET_STATUS.PLACE_ERROR;
    case 'force_declined':
      return BET_STATUS.FORCE_DECLINE;
    case 'unsettled':
      return BET_STATUS.UNSETTLED;
    case 'cashed_out':
      return BET_STATUS.CASHED_OUT;
    case 'settled':
      // settlement records the code (3, 5 every leg void, 6 refunded manually); older rows fall back on settle_type
      return row.settle_status ?? (row.settle_type === 2 ? BET_STATUS.REFUNDED : BET_STATUS.SETTLED);
  }
}

/** Terminal states of placement: the bet never reached Accept. */
export const NOT_ACCEPTED_STATES: readonly BetState[] = ['declined', 'place_error', 'force_declined'];

/** The bet type name of a row. */
export function betTypeOf(row: Pick<BetRow, 'bet_type'>): BetType {
  return row.bet_type;
}
