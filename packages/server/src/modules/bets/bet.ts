import type { BetType } from '@bookie/core';
import { BET_STATUS } from '@bookie/core';
import type { BetBuilderTable, BetSelectionTable, BetState, BetTable, Selectable } from '../../db/schema.js';

/** A bet row as stored. */
export type BetRow = Selectable<BetTable>;
/** A selection row as stored (a plain odds selection, or an inner leg of a builder when `builder` is set). */
export type SelectionRow = Selectable<BetSelectionTable>;
/** A bet builder row as stored. */
export type BuilderRow = Selectable<BetBuilderTable>;

/** A bet builder of a bet: its row and its inner legs, in leg order (docs/adr/0043-bet-builder-bets.md). */
export interface BetBuilder {
  row: BuilderRow;
  legs: SelectionRow[];
}

/**
 * A bet with its selections: the plain odds selections (`builder` null), in bet order, and its bet builders, by
 * index. Bet arithmetic (type, total odds, express and system combinations) counts each builder as ONE selection at
 * its combined odds: a bet has `selections.length + builders.length` selections ({@link selectionCount}).
 */
export interface Bet {
  row: BetRow;
  selections: SelectionRow[];
  builders: BetBuilder[];
}

/** How many selections a bet has for its type: plain odds and builders, one each. */
export function selectionCount(bet: Pick<Bet, 'selections' | 'builders'>): number {
  return bet.selections.length + bet.builders.length;
}

/** Every sport event a bet is on (plain selections and builders), each once, in bet order. */
export function betSportEvents(bet: Pick<Bet, 'selections' | 'builders'>): string[] {
  const out: string[] = [];
  // a bet has a few selections: a scan of the list is cheaper than a set
  for (const s of bet.selections) if (!out.includes(s.sport_event_id)) out.push(s.sport_event_id);
  for (const b of bet.builders) if (!out.includes(b.row.sport_event_id)) out.push(b.row.sport_event_id);
  return out;
}

/**
 * Every platform sport event of a bet about to be written (plain selections and builders, as placement and MTS form
 * them; a foreign selection of an MTS mixed combo is on no sport event of Bookie's), each once, in bet order.
 */
export function newBetSportEvents(bet: {
  selections: readonly { sportEventId: string; foreignId?: string | null }[];
  builders?: readonly { sportEventId: string }[];
}): string[] {
  const out: string[] = [];
  for (const s of bet.selections) if (!s.foreignId && !out.includes(s.sportEventId)) out.push(s.sportEventId);
  for (const b of bet.builders ?? []) if (!out.includes(b.sportEventId)) out.push(b.sportEventId);
  return out;
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
