/**
 * What became of the bets and cash-outs a run sent: the records the runners write and the reports read.
 *
 * @packageDocumentation
 */
import type { BetView, CashOutOrderAnswer, CashOutQuote } from '@bookie/contracts';
import type { ChosenSelection, PlannedBet } from './bettors.js';
import type { DuringDelay } from './in-play.js';

/** What became of one planned bet when it was sent. */
export interface BetOutcome {
  plan: PlannedBet;
  playerId: string;
  /** What the player chose (absent when nothing was open to bet on). */
  selections?: ChosenSelection[];
  /** Bookie's answer to `POST /frame-api/bets`. */
  answer?: BetView;
  /** A refused request (no bet formed) or a transport failure. */
  error?: string;
  /** Why the bet was not sent. */
  skipped?: string;
}

/** What became of a live bet. */
export interface LiveBetOutcome extends BetOutcome {
  live: {
    match: number;
    /** The minute it was sent after, e.g. `"63'"`. */
    minute: string;
    during: DuringDelay;
    /** True when the next minute's commands were sent while the bet waited out its delay. */
    sentDuringDelay: boolean;
  };
}

/** What became of a planned cash-out. */
export interface CashOutOutcome {
  betId: string;
  playerId: string;
  match: number;
  minute: string;
  kind: 'full' | 'partial';
  via: 'frame' | 'partner';
  /** The part of the stake asked for (6 decimals). */
  amount: string;
  /** The quote (absent when the bet was not open any more). */
  quote?: CashOutQuote;
  /** The order (absent when nothing was offered). */
  order?: CashOutOrderAnswer['order'];
  /**
   * Fair value of the amount at the quote: amount × accepted odds × the selection's margin-free probability as the
   * frame showed it just before (12 decimals); absent without a quote.
   */
  fair?: string;
  error?: string;
}
