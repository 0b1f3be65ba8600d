/**
 * The status numbers of Bookie's wire, each with its name: the one table every text that lists them is built from
 * (OpenAPI descriptions, schema descriptions, CLI help) and that a test holds the docs' tables and sentences to.
 *
 * The numbers are `@bookie/core`'s constants ({@link FIXTURE_STATUS}, {@link MARKET_STATUS}, {@link ODD_STATUS},
 * {@link BET_STATUS}, {@link SETTLE_TYPE}), which settlement and the bet decision compute with; core cannot depend
 * on this package, so the names are attached here, keyed by the constants' keys: a code added to core without a
 * name here does not compile.
 *
 * @packageDocumentation
 */
import { BET_STATUS, FIXTURE_STATUS, MARKET_STATUS, ODD_STATUS, SETTLE_TYPE } from '@bookie/core';

export { BET_STATUS, FIXTURE_STATUS, MARKET_STATUS, ODD_STATUS, SETTLE_TYPE };

/** One code of a status family: its number, the key of core's constant and the name texts use. */
export interface StatusCode {
  /** The number on the wire. */
  readonly code: number;
  /** The key of the code in core's constant, e.g. `HALF_WIN`. */
  readonly key: string;
  /** The name texts give the code, lower case, e.g. `half win`. */
  readonly name: string;
}

/** A family of status codes: what the numbers are called, and every code in ascending order. */
export interface StatusFamily {
  /** What the numbers are, e.g. `odd status`. */
  readonly title: string;
  /** Every code of the family, ascending. */
  readonly codes: readonly StatusCode[];
}

function family<T extends Readonly<Record<string, number>>>(
  title: string,
  numbers: T,
  names: { readonly [K in keyof T]: string },
): StatusFamily {
  const codes = Object.entries(numbers)
    .map(([key, code]) => ({ code, key, name: names[key] as string }))
    .sort((a, b) => a.code - b.code);
  return Object.freeze({ title, codes: Object.freeze(codes.map((c) => Object.freeze(c))) });
}

/**
 * Fixture status of the trading feed (the feed contract, "Fixture status"): 0 not started, 1 live, 2 suspended
 * (may return to live), 3 ended, 4 closed, 5 cancelled, 6 abandoned (both deprecated by the feed), 7 delayed,
 * 8 unknown. Bets are allowed only on 0 and 1 (the acceptance rule).
 */
export const FIXTURE_STATUS_CODES: StatusFamily = family('fixture status', FIXTURE_STATUS, {
  NOT_STARTED: 'not started',
  LIVE: 'live',
  SUSPENDED: 'suspended',
  ENDED: 'ended',
  CLOSED: 'closed',
  CANCELLED: 'cancelled',
  ABANDONED: 'abandoned',
  DELAYED: 'delayed',
  UNKNOWN: 'unknown',
});

/**
 * Market status of the trading feed (the feed contract, "Market status"): 0 active, 1 suspended (odds hidden, may
 * return to active), 2 deactivated, 3 resulted, 4 cancelled. Bets are allowed only on 0 (the acceptance rule).
 */
export const MARKET_STATUS_CODES: StatusFamily = family('market status', MARKET_STATUS, {
  ACTIVE: 'active',
  SUSPENDED: 'suspended',
  DEACTIVATED: 'deactivated',
  RESULTED: 'resulted',
  CANCELLED: 'cancelled',
});

/**
 * Odd status: the result of an outcome, and so of every bet selection on it. 0–6 are the feed's (the feed contract,
 * "Odd status"): 0 not resulted (bets allowed, nothing to settle), 1 win, 2 loss, 3 half win, 4 half loss,
 * 5 refunded (the market could not be resulted), 6 cancelled (deprecated by the feed; refunded for another reason);
 * 7 refunded manually (an operator's refund) is Bookie's addition for callbacks, bet views and reported selections
 * (docs/decisions.md D4). Leg factors (D15): win d, loss 0, half win (d+1)/2, half loss 1/2, 5–7 one.
 * A bet selection's `status` is this code; there is no separate selection status.
 */
export const ODD_STATUS_CODES: StatusFamily = family('odd status', ODD_STATUS, {
  NOT_RESULTED: 'not resulted',
  WIN: 'win',
  LOSS: 'loss',
  HALF_WIN: 'half win',
  HALF_LOSS: 'half loss',
  REFUNDED: 'refunded',
  CANCELLED: 'cancelled',
  REFUNDED_MANUALLY: 'refunded manually',
});

/**
 * Bet status number of the APIs and the partner-reported bets (docs/decisions.md D6; the callback contract names
 * 3 settled, 4 unsettled, 5 refunded, 6 refunded manually and 11 force_decline): 1 accepted, 2 declined,
 * 3 settled, 4 unsettled, 5 refunded (every leg void), 6 refunded manually (every leg void, one refunded by an
 * operator), 7 cashed out, 10 place error (the partner refused the hold), 11 force-declined (`/bet/place` could not
 * be reached). A bet still being placed has no code of its own; the frame API shows it as 0.
 */
export const BET_STATUS_CODES: StatusFamily = family('bet status', BET_STATUS, {
  ACCEPTED: 'accepted',
  DECLINED: 'declined',
  SETTLED: 'settled',
  UNSETTLED: 'unsettled',
  REFUNDED: 'refunded',
  REFUNDED_MANUALLY: 'refunded manually',
  CASHED_OUT: 'cashed out',
  PLACE_ERROR: 'place error',
  FORCE_DECLINE: 'force-declined',
});

/**
 * `settle_type` of `/bet/settle` (docs/decisions.md D3): the settled payout against the stake (against the freebet
 * amount for a freebet bet): above 1 win, equal 2 refund, below 3 lost.
 */
export const SETTLE_TYPE_CODES: StatusFamily = family('settle_type', SETTLE_TYPE, {
  WIN: 'win',
  REFUND: 'refund',
  LOST: 'lost',
});

/** Every status family, for tests and tools that check texts against the table. */
export const STATUS_FAMILIES: readonly StatusFamily[] = Object.freeze([
  FIXTURE_STATUS_CODES,
  MARKET_STATUS_CODES,
  ODD_STATUS_CODES,
  BET_STATUS_CODES,
  SETTLE_TYPE_CODES,
]);

/** Which codes of a family a text lists: `min`..`max` inclusive (both optional). */
export interface CodeRange {
  /** The lowest code listed. */
  min?: number;
  /** The highest code listed. */
  max?: number;
}

function inRange(family: StatusFamily, range: CodeRange): readonly StatusCode[] {
  return family.codes.filter(
    (c) =>
      (range.min === undefined || c.code >= range.min) && (range.max === undefined || c.code <= range.max),
  );
}

/**
 * The codes of a family as a sentence fragment, number then name, comma-separated:
 * `describeCodes(ODD_STATUS_CODES, { min: 1, max: 6 })` → `"1 win, 2 loss, 3 half win, 4 half loss, 5 refunded,
 * 6 cancelled"`. Throws a RangeError when the range holds no code.
 */
export function describeCodes(family: StatusFamily, range: CodeRange = {}): string {
  const codes = inRange(family, range);
  if (codes.length === 0) throw new RangeError(`no ${family.title} code in ${JSON.stringify(range)}`);
  return codes.map((c) => `${c.code} ${c.name}`).join(', ');
}

/** The lowest and highest code of a family (within `range`), e.g. for a schema's `minimum` and `maximum`. */
export function codeBounds(
  family: StatusFamily,
  range: CodeRange = {},
): { minimum: number; maximum: number } {
  const codes = inRange(family, range);
  const first = codes[0];
  const last = codes[codes.length - 1];
  if (!first || !last) throw new RangeError(`no ${family.title} code in ${JSON.stringify(range)}`);
  return { minimum: first.code, maximum: last.code };
}

/** The name of `code` in `family`, or undefined when the family has no such code. */
export function statusName(family: StatusFamily, code: number): string | undefined {
  return family.codes.find((c) => c.code === code)?.name;
}
