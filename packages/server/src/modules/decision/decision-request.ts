import type { SportEvent } from '@bookie/contracts';
import type { BuilderSettings } from '@bookie/core';
import type { Bet } from '../bets/index.js';
import type { RiskRecheck } from '../risk/index.js';
import type { WhiteLabel } from '../tenants/index.js';
import type { PlacementRequest, PlacementVerdict } from './validate-placement.js';

/**
 * spec 03 VIP `recommended_max_payout` in the bet currency, as sent: parsed (validation_error naming `field`) only
 * when the risk engine reads it.
 */
export interface RecommendedPayout {
  value: string;
  /** The request's field, for the error. */
  field: string;
}

/** What every way a bet arrives asks of the decision. */
interface RequestOf<M extends string> {
  /**
   * How the bet arrived, which says how its facts are gathered and what is done with its bet delay:
   * - `place`: a frame bet, held on the player's wallet: waits the bet delay, then decides;
   * - `report`: a partner-reported bet (MTS `POST /bets`): decides, and when it accepts waits what remains of the
   *   delay (at most `wait.maxS`) and decides again;
   * - `advise`: advisory mode: decides on strategy 1, no delay;
   * - `restrictions`: `GET /restrictions`: decides and reports the delay without waiting it.
   */
  mode: M;
  /** The bet's white label, as read to parse the request (its limits, bet interval, live delay). */
  whiteLabel: WhiteLabel;
  playerId: string;
  /** The bet, parsed and exact. */
  bet: PlacementRequest;
}

/** A frame bet whose `/bet/place` the partner accepted: the facts come from its hold. */
export interface PlaceRequest extends RequestOf<'place'> {
  /** The held bet: its reserved boost multiplies the odds the limits see, its bonuses are checked. */
  held: Bet;
  /** The player's risk group (known, or recorded with the hold). */
  group: string;
  /** When the player last had a bet accepted on each sport event, read with the hold. */
  lastBets: ReadonlyMap<string, Date>;
  /** The client's creation time of the bet (ISO 8601), deducted from the bet delay. */
  clientCreatedAt: string | undefined;
  /** When the bet was received, unix ms. */
  receivedAt: number;
}

/** A bet the partner reports (`POST /bets`), recorded with the decision. */
export interface ReportRequest extends RequestOf<'report'> {
  /** spec 03 VIP `recommended_max_payout`. */
  recommendedMaxPayout?: RecommendedPayout;
  /** The client's creation time of the bet (ISO 8601), deducted from the bet delay. */
  clientCreatedAt: string;
  /** When the bet was received, unix ms. */
  receivedAt: number;
  /** The longest wait for the bet delay (s) and how to wait. */
  wait: { maxS: number; sleep(ms: number): Promise<void> };
  /**
   * True when the request repeats one already answered: no delay is waited then. Awaited only before a wait, so a
   * lazy one reads nothing when there is no delay to wait.
   */
  repeated?: PromiseLike<boolean>;
}

/** A bet the partner took on its own and asks advice on (`POST /bets/advisory`). */
export type AdviseRequest = RequestOf<'advise'>;

/** The calculation before a placement (`GET /restrictions`): nothing recorded but the player's first request. */
export interface RestrictionsRequest extends RequestOf<'restrictions'> {
  /** spec 03 VIP `recommended_max_payout`. */
  recommendedMaxPayout?: RecommendedPayout;
  /** The client's creation time of the bet (ISO 8601), deducted from the bet delay. */
  clientCreatedAt: string | undefined;
}

/** One bet to decide, by the way it arrived. */
export type DecisionRequest = PlaceRequest | ReportRequest | AdviseRequest | RestrictionsRequest;

/** The way a bet arrived. */
export type DecisionMode = DecisionRequest['mode'];

/** The one decision on a bet: every failing restriction (empty: accept), the accepted odds and what it read. */
export interface Decision extends PlacementVerdict {
  /** The catalogue's snapshot of the bet's sport events the decision was taken on. */
  events: ReadonlyMap<string, SportEvent | undefined>;
  /** The bet delay, seconds: waited (`place`; `report` at most its cap) or reported (`restrictions`); 0 for advice. */
  delayS: number;
  /**
   * The risk engine's part of the bet's write: the decision again on the exposure read under its lock, in the
   * transaction that records the bet (D38); undefined when the engine is off.
   */
  recheck: RiskRecheck | undefined;
  /** The white label's builder settings the bet's builders were priced with; undefined for a bet without. */
  builderSettings: BuilderSettings | undefined;
}
