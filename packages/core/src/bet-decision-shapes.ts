/**
 * The shapes of the one decision on a bet ({@link decideBet} in bet-decision.ts): what it is given (the bet, its
 * selections, the sport events, the white label, the risk state) and what it answers (the verdict, its legs, the
 * restrictions and exposure bounds).
 *
 * @packageDocumentation
 */
import type { BuilderLegRef, BuilderQuote, BuilderResult } from './bet-builder/builder-types.js';
import type { BetType } from './bet-types.js';
import type { Rational } from './decimal.js';
import type { OddsStrategy } from './odds-strategy.js';
import type { Restriction } from './restrictions.js';

/** Live or prematch: exposure, limits and delays are kept apart for each (the partner-reported bets rule, the risk rule, the risk rule). */
export type MarketPhase = 'live' | 'prematch';

/** An outcome whose exposure is kept (the risk rule): sport event, market, odd, and the phase the bets were taken in. */
export interface OutcomeKey {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  phase: MarketPhase;
}

/** The map key of an outcome in {@link RiskState.exposure}: a JSON array of phase and the three ids. */
export function outcomeKey(k: OutcomeKey): string {
  const { sport_event_id: e, market_id: m, odd_id: o } = k;
  // ids that JSON writes as they are (no quote, backslash or control character: almost all) are joined directly, the
  // same text JSON.stringify gives without its array and its escaping pass
  if ((k.phase === 'live' || k.phase === 'prematch') && PLAIN.test(e) && PLAIN.test(m) && PLAIN.test(o))
    return `["${k.phase}","${e}","${m}","${o}"]`;
  return JSON.stringify([k.phase, e, m, o]);
}

/** A string JSON writes between quotes unchanged (printable ASCII but `"` and `\`). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A risk group (the risk rule): its stake factor and, for `recommended_max_payout` (the MTS and advisory contract VIP), its max payout in EUR. */
export interface RiskGroup {
  name: string;
  /** Multiplies the remaining liability a player of the group may take (default 1, vip 5, restricted 0.2, blocked 0). */
  stakeFactor: Rational;
  /** The max payout (EUR) the group stands for, used to place a VIP by `recommended_max_payout`; none: not offered. */
  maxPayoutEur?: Rational;
}

/** The risk facts the decision reads (the risk rule, the risk rule). */
export interface RiskState {
  /** Current exposure in EUR by {@link outcomeKey}; a missing outcome has 0. */
  exposure: ReadonlyMap<string, Rational>;
  /** The liability limit (EUR) of an outcome of this market type and phase; undefined: no limit. */
  liabilityLimit(marketTypeId: string, phase: MarketPhase): Rational | undefined;
  /** The player's risk group. */
  group: RiskGroup;
  /** Units of the bet currency per EUR (`EUR_RATES`); undefined when the currency has no rate. */
  eurRate: Rational | undefined;
}

/** The part of a feed odd the decision reads (the feed contract, "Odd"). */
export interface DecisionOdd {
  /** Odds, decimal string with 12 decimals. */
  value: string;
  status: number;
  is_active: boolean;
}

/** The part of a feed sport event the decision reads (the feed contract, "Sport event snapshot"). */
export interface DecisionSportEvent {
  id: string;
  bet_stop: boolean;
  fixture: { status: number };
  markets: Record<string, { status: number; type_id?: number | string; odds: Record<string, DecisionOdd> }>;
}

/** A platform selection as requested: ids and the odds the player saw. */
export interface DecisionSelection {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  odds: Rational;
}

/**
 * A bet builder as requested (the bet builder rule; docs/adr/0043-bet-builder-bets.md): inner legs on one sport event
 * and the combined odds the player saw. The bet's arithmetic counts it as ONE selection at its combined odds.
 */
export interface DecisionBuilder {
  sport_event_id: string;
  /** The inner legs: market (with its specifiers, when sent) and odd of the builder's sport event. */
  legs: readonly BuilderLegRef[];
  /** The combined odds the player saw. */
  odds: Rational;
}

/**
 * The selection reference a builder's `selection_value` restriction names (the odds strategy on its combined odds):
 * market id `bet_builder`, odd id the builder's index in the bet.
 */
export const BUILDER_SELECTION_MARKET_ID = 'bet_builder';

/** A foreign selection of an MTS mixed combo (the MTS and advisory contract): not on the platform; its odds multiply into the total. */
export interface DecisionForeignSelection {
  id: string;
  odds: Rational;
}

/** The bet being decided. */
export interface DecisionBet {
  type: BetType;
  systemSizes: readonly number[];
  /** An MTS or advisory bet's `type.system_sizes` as sent, checked against the selections (`validateBetType`). */
  typeSizes?: readonly number[];
  /** Stake in the bet currency; undefined asks for the largest acceptable stake only (`GET /restrictions`, the partner-reported bets rule). */
  stake?: Rational;
  currency: string;
  oddsStrategy: OddsStrategy;
  selections: readonly DecisionSelection[];
  /** The bet builders (none: plain odds only). */
  builders?: readonly DecisionBuilder[];
  foreignSelections?: readonly DecisionForeignSelection[];
}

/** The white label's stake rules, exact; undefined: no such limit. */
export interface DecisionWhiteLabel {
  minStake?: Rational;
  maxStake?: Rational;
  maxPayout?: Rational;
  /** Seconds a player waits between bets on one sport event; 0: no bet_interval. */
  betIntervalS: number;
}

/** Every input of {@link decideBet}. */
export interface BetDecisionInput {
  bet: DecisionBet;
  /** The current replica snapshot of a sport event, or undefined when unknown. */
  event(sportEventId: string): DecisionSportEvent | undefined;
  whiteLabel: DecisionWhiteLabel;
  /** Now, unix ms. */
  now: number;
  /** When this player's last accepted bet on each sport event was made, unix ms. */
  lastBetAt: ReadonlyMap<string, number>;
  /** The express cap of the express cap rule in the bet currency; undefined when no EUR rate is configured for it. */
  expressCap: Rational | undefined;
  /** Strategy-1 tolerance (relative fraction). */
  oddsTolerance: Rational;
  /** A reserved boost's multiplier (the boosted odds rule): payout limits and exposure use the boosted odds. */
  boostMultiplier?: Rational;
  /** The risk engine's facts; undefined decides without it (the engine is off). */
  risk?: RiskState;
  /** The most combinations a system bet may have (declined `bet_type` `too_many_combinations` above it). */
  maxCombinations?: number;
  /**
   * The builder `index` of the bet repriced from its event's current odds and the white label's builder margin
   * (the caller calls core's `priceBuilder`); asked only for a builder whose inner legs all pass the acceptance rule.
   * Required when the bet has builders (without it they are declined `wl_defined`).
   */
  priceBuilder?: (index: number) => BuilderResult<BuilderQuote>;
}

/** A platform leg as risk sees it: its outcome, market type and the exposure a bet at the stake adds. */
export interface DecisionLeg {
  outcome: OutcomeKey;
  marketTypeId: string;
  /**
   * EUR, 6 decimals; the leg's part of the potential win (the risk rule). 0 without a stake or a rate. An inner leg
   * of a builder carries its builder's whole part (docs/decisions.md D61).
   */
  exposure: Rational;
  /**
   * The index of the selection the leg's exposure is computed for, in the order plain selections, builders, foreign
   * selections: the leg's own index for a plain selection, the builder's for an inner leg.
   */
  unit: number;
  /** The builder index of an inner leg; absent for a plain selection. */
  builder?: number;
}

/** The decision: accept when `restrictions` is empty. */
export interface BetDecision {
  /** Every failing restriction (empty: accept); with a stake only. */
  restrictions: Restriction[];
  /** The odds each platform selection is accepted at, by selection index. */
  acceptedOdds: Rational[];
  /** The combined odds each builder is accepted at, by builder index (the requested odds where refused). */
  acceptedBuilderOdds: Rational[];
  /** Each builder's price now, by builder index; undefined where a leg failed or the price was refused. */
  builderQuotes: (BuilderQuote | undefined)[];
  /** The accepted total odds before any boost (foreign selections included). */
  totalOdds: Rational;
  /** The largest acceptable stake (6 decimals, bet currency); undefined when nothing limits it. */
  maxBet: Rational | undefined;
  /** The platform legs with the exposure the bet adds (the risk rule). */
  legs: DecisionLeg[];
  /**
   * Per limited platform leg (by {@link outcomeKey}), the outcome exposure (EUR) up to which the stake still fits its
   * liability limit: limit − stake × win per unit of stake ÷ stake factor. Given only when the bet has a stake of at
   * most 6 decimals, the risk state a positive stake factor and an EUR rate: then, the rest of the facts unchanged,
   * the decision on any exposure within every bound ({@link withinExposureBounds}) declines nothing the decision
   * without the risk part declines, since the 6-decimal rounding of the risk max stake cannot fall below such a stake.
   */
  exposureBounds?: ExposureBound[];
}

/** An outcome exposure (EUR) up to which a decided stake still fits the outcome's liability limit. */
export interface ExposureBound {
  /** The outcome, as {@link outcomeKey}. */
  key: string;
  /** The largest exposure of the outcome at which the stake still fits. */
  upTo: Rational;
}
