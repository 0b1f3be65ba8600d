/**
 * Numeric status codes of the wire (the feed contract, "States and transitions", the settle type rule, the odd statuses in callbacks rule, the bet status numbers rule), with names.
 * Internally code uses the names; the numbers are what feeds and callbacks carry. The names texts give each number
 * (`3 half win`) are attached to these constants in `@bookie/contracts` (`status-codes.ts`, e.g. `ODD_STATUS_CODES`),
 * which every description, CLI help and the docs test build from.
 *
 * @packageDocumentation
 */

/** Fixture status codes (the feed contract, "Fixture status"). Bets are allowed only on 0 and 1. */
export const FIXTURE_STATUS = {
  NOT_STARTED: 0,
  LIVE: 1,
  SUSPENDED: 2,
  ENDED: 3,
  CLOSED: 4,
  CANCELLED: 5,
  ABANDONED: 6,
  DELAYED: 7,
  UNKNOWN: 8,
} as const;
/** A fixture status code 0–8 (the feed contract, "Fixture status"). */
export type FixtureStatus = (typeof FIXTURE_STATUS)[keyof typeof FIXTURE_STATUS];

/** Market status codes (the feed contract, "Market status"). Bets are allowed only on 0 (active). */
export const MARKET_STATUS = {
  ACTIVE: 0,
  SUSPENDED: 1,
  DEACTIVATED: 2,
  RESULTED: 3,
  CANCELLED: 4,
} as const;
/** A market status code 0–4 (the feed contract, "Market status"). */
export type MarketStatus = (typeof MARKET_STATUS)[keyof typeof MARKET_STATUS];

/**
 * Odd status codes: 0–6 of the feed (the feed contract, "Odd status") plus 7 = refunded manually in callbacks (the odd statuses in callbacks rule).
 * 0 means not resulted: bets are allowed, settlement is not possible.
 */
export const ODD_STATUS = {
  NOT_RESULTED: 0,
  WIN: 1,
  LOSS: 2,
  HALF_WIN: 3,
  HALF_LOSS: 4,
  REFUNDED: 5,
  CANCELLED: 6,
  REFUNDED_MANUALLY: 7,
} as const;
/** An odd status code 0–7 (the feed contract, "Odd status", the odd statuses in callbacks rule). */
export type OddStatus = (typeof ODD_STATUS)[keyof typeof ODD_STATUS];

/** True when `n` is an odd status code 0–7 (the odd statuses in callbacks rule). */
export function isOddStatus(n: unknown): n is OddStatus {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 7;
}

/** True for the statuses that void a leg (factor 1): 5 refunded, 6 cancelled, 7 refunded manually (the leg factors rule). */
export function isVoidStatus(status: OddStatus): boolean {
  return (
    status === ODD_STATUS.REFUNDED ||
    status === ODD_STATUS.CANCELLED ||
    status === ODD_STATUS.REFUNDED_MANUALLY
  );
}

/** `settle_type` of the `/bet/settle` callback (the settle type rule): payout above, equal to or below the stake. */
export const SETTLE_TYPE = { WIN: 1, REFUND: 2, LOST: 3 } as const;
/** A `settle_type` code 1 win, 2 refund, 3 lost (the settle type rule). */
export type SettleType = (typeof SETTLE_TYPE)[keyof typeof SETTLE_TYPE];

/** Bet status codes of the APIs (the bet status numbers rule). */
export const BET_STATUS = {
  ACCEPTED: 1,
  DECLINED: 2,
  SETTLED: 3,
  UNSETTLED: 4,
  REFUNDED: 5,
  REFUNDED_MANUALLY: 6,
  CASHED_OUT: 7,
  PLACE_ERROR: 10,
  FORCE_DECLINE: 11,
} as const;
/** A bet status code of the APIs (the bet status numbers rule). */
export type BetStatusCode = (typeof BET_STATUS)[keyof typeof BET_STATUS];
