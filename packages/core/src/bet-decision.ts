/**
 * The one decision on a bet (ARCHITECTURE "One decision for every way a bet arrives"; the partner-reported bets rule, the risk rule, the risk rule):
 * integrity (the acceptance rule of the feed contract), the odds acceptance strategy (the callback contract), the bet type rules, the white
 * label's stake and payout limits with the express cap (the express cap rule), bet_interval, and the risk engine — the liability
 * limit of each outcome from its exposure and the player's risk group. A frame bet, an MTS bet (whose foreign
 * selections multiply into the total odds) and an advisory check all call {@link decideBet}; `GET /restrictions`
 * is the same call without recording a bet. Pure: every fact (replica state, exposure, group, limits, now) is an
 * input.
 *
 * @packageDocumentation
 */
import { checkAcceptance } from './acceptance.js';
import type { BuilderLegRef, BuilderQuote, BuilderResult } from './bet-builder/builder-types.js';
import { type BetType, validateBetType } from './bet-types.js';
import {
  compare,
  div,
  formatMoney,
  formatOdds,
  fromInteger,
  hasAtMostDecimals,
  max,
  mul,
  ONE,
  type Rational,
  rational,
  roundDown,
  sub,
  ZERO,
} from './decimal.js';
import { betExposure, winPerUnitStakeEur } from './exposure.js';
import { applyOddsStrategy, type OddsStrategy } from './odds-strategy.js';
import { type Restriction, restriction, withKnownContext } from './restrictions.js';
import { exactPayout } from './settlement.js';
import { FIXTURE_STATUS } from './statuses.js';

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
  return JSON.stringify([k.phase, k.sport_event_id, k.market_id, k.odd_id]);
}

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

/**
 * Whether every bound holds on `exposure` (a missing outcome has 0): the risk part of the decision that gave the
 * bounds then still lets its stake through (see {@link BetDecision.exposureBounds}).
 */
export function withinExposureBounds(
  bounds: readonly ExposureBound[],
  exposure: ReadonlyMap<string, Rational>,
): boolean {
  for (const b of bounds) {
    if (compare(exposure.get(b.key) ?? ZERO, b.upTo) > 0) return false;
  }
  return true;
}

/** A cap no express reaches: the total odds of a bet are its odds uncapped. */
const NO_EXPRESS_CAP = fromInteger(10n ** 30n);

/** The total odds of a bet: potential payout per unit of stake with every leg winning (no caps). */
export function betTotalOdds(
  type: BetType,
  odds: readonly Rational[],
  systemSizes: readonly number[],
): Rational {
  const legs = odds.map((o) => ({ odds: o, status: 1 as const }));
  return exactPayout({
    betType: type,
    stake: ONE,
    legs,
    ...(type === 'system' ? { systemSizes } : {}),
    expressCap: NO_EXPRESS_CAP,
  }).value;
}

/** The phase of a bet on an event: live while the fixture is live (status 1), prematch otherwise. */
export function phaseOf(event: Pick<DecisionSportEvent, 'fixture'> | undefined): MarketPhase {
  return event?.fixture.status === FIXTURE_STATUS.LIVE ? 'live' : 'prematch';
}

/** Feed odd values parsed once per text (the same few values are read by every decision; bounded). */
const parsedOddValues = new Map<string, Rational>();

function parseOddValue(value: string): Rational {
  let r = parsedOddValues.get(value);
  if (r !== undefined) return r;
  const m = /^(\d+)(?:\.(\d{1,12}))?$/.exec(value);
  if (!m) throw new RangeError(`bad feed odd value ${value}`);
  const frac = m[2] ?? '';
  r = rational(BigInt(`${m[1]}${frac}`), 10n ** BigInt(frac.length));
  if (parsedOddValues.size >= 10_000) parsedOddValues.clear();
  parsedOddValues.set(value, r);
  return r;
}

/**
 * The largest stake the risk engine allows (the risk rule): for each platform leg with a liability limit,
 * factor × max(0, limit − exposure) / its apportioned win per unit of stake (in the bet currency), rounded down to 6
 * decimals; the smallest binds. Returns undefined when no leg is limited.
 */
export function riskMaxStake(
  legs: readonly { outcome: OutcomeKey; marketTypeId: string }[],
  perUnitEur: readonly Rational[],
  risk: RiskState,
): { maxStake: Rational; sportEventId: string } | undefined {
  let best: { maxStake: Rational; sportEventId: string } | undefined;
  legs.forEach((leg, i) => {
    const limit = risk.liabilityLimit(leg.marketTypeId, leg.outcome.phase);
    const perUnit = perUnitEur[i] as Rational;
    if (limit === undefined || compare(perUnit, ZERO) <= 0) return;
    const used = risk.exposure.get(outcomeKey(leg.outcome)) ?? ZERO;
    const remaining = max(ZERO, sub(limit, used));
    const stake = roundDown(div(mul(risk.group.stakeFactor, remaining), perUnit), 6);
    if (!best || compare(stake, best.maxStake) < 0)
      best = { maxStake: stake, sportEventId: leg.outcome.sport_event_id };
  });
  return best;
}

/**
 * Decides a bet (ARCHITECTURE "One decision for every way a bet arrives"). Checks, and reports EVERY failure of:
 * bet type rules (foreign selections count as selections); each platform selection against the acceptance rule and
 * the odds strategy (accepted at the current odds where the strategy allows); min stake; the largest acceptable
 * stake — the white label's max stake, max payout and, for combinations, the express cap (the express cap rule) on the total odds
 * (boosted when a boost is reserved), and the risk engine's liability limits (the risk rule) — as `max_bet` with that amount;
 * bet_interval; and a risk group with stake factor 0 (`blocked`) as `player_limit` with `types: ["risk_group"]`.
 * Every restriction's context carries `max_bet` (when known) and `sport_event_id` (the callback errors rule). Without a stake only
 * `maxBet` and the stake-independent restrictions are answered (`GET /restrictions`, the partner-reported bets rule).
 */
export function decideBet(input: BetDecisionInput): BetDecision {
  const { bet } = input;
  const out: Restriction[] = [];
  const foreign = bet.foreignSelections ?? [];
  const builders = bet.builders ?? [];
  const firstEvent = bet.selections[0]?.sport_event_id ?? builders[0]?.sport_event_id;
  out.push(
    ...validateBetType({
      type: bet.type,
      selections: [
        ...bet.selections,
        ...builders.map((b) => ({ sport_event_id: b.sport_event_id })),
        ...foreign.map((f) => ({ sport_event_id: `foreign:${f.id}` })),
      ],
      systemSizes: [...bet.systemSizes],
      ...(bet.typeSizes ? { typeSizes: bet.typeSizes } : {}),
      ...(input.maxCombinations !== undefined ? { maxCombinations: input.maxCombinations } : {}),
    }),
  );

  const acceptedOdds: Rational[] = [];
  const legs: { outcome: OutcomeKey; marketTypeId: string; unit: number; builder?: number }[] = [];
  bet.selections.forEach((sel, unit) => {
    const ref = { sport_event_id: sel.sport_event_id, market_id: sel.market_id, odd_id: sel.odd_id };
    const event = input.event(sel.sport_event_id);
    const failing = checkAcceptance(event, ref);
    out.push(...failing);
    const market =
      event && Object.hasOwn(event.markets, sel.market_id) ? event.markets[sel.market_id] : undefined;
    legs.push({
      outcome: { ...ref, phase: phaseOf(event) },
      marketTypeId: String(market?.type_id ?? ''),
      unit,
    });
    const current =
      market && Object.hasOwn(market.odds, sel.odd_id) ? market.odds[sel.odd_id]?.value : undefined;
    if (failing.length > 0 || current === undefined) {
      acceptedOdds.push(sel.odds);
      return;
    }
    const verdict = applyOddsStrategy({
      strategy: bet.oddsStrategy,
      requested: sel.odds,
      current: parseOddValue(current),
      tolerance: input.oddsTolerance,
      selection: ref,
    });
    if (verdict.accepted) acceptedOdds.push(verdict.odds);
    else {
      out.push(verdict.restriction);
      acceptedOdds.push(sel.odds);
    }
  });

  const acceptedBuilderOdds: Rational[] = [];
  const builderQuotes: (BuilderQuote | undefined)[] = [];
  builders.forEach((b, index) => {
    const decided = decideBuilder(input, b, index, bet.selections.length + index);
    out.push(...decided.restrictions);
    legs.push(...decided.legs);
    acceptedBuilderOdds.push(decided.odds);
    builderQuotes.push(decided.quote);
  });

  const allOdds = [...acceptedOdds, ...acceptedBuilderOdds, ...foreign.map((f) => f.odds)];
  const typeOk = out.every((r) => r.type !== 'bet_type');
  const totalOdds = typeOk ? betTotalOdds(bet.type, allOdds, bet.systemSizes) : allOdds.reduce(mul, ONE);
  const payoutOdds = input.boostMultiplier ? mul(totalOdds, input.boostMultiplier) : totalOdds;

  const { minStake, maxStake, maxPayout } = input.whiteLabel;
  if (bet.stake !== undefined && minStake !== undefined && compare(bet.stake, minStake) < 0) {
    out.push(restriction('min_bet', { min_bet: formatMoney(minStake) }));
  }
  let maxBet: Rational | undefined = maxStake;
  let maxBetEvent = firstEvent;
  const payoutLimits: Rational[] = [];
  if (maxPayout !== undefined) payoutLimits.push(maxPayout);
  if (bet.type !== 'single') {
    if (input.expressCap) payoutLimits.push(input.expressCap);
    // without a rate the 50,000 EUR cap (the express cap rule) cannot be applied: refuse rather than settle uncapped
    else out.push(restriction('wl_defined', { rule: `no EUR rate for ${bet.currency} (EUR_RATES)` }));
  }
  for (const limit of payoutLimits) {
    const stakeForLimit = roundDown(div(limit, payoutOdds), 6);
    if (maxBet === undefined || compare(stakeForLimit, maxBet) < 0) maxBet = stakeForLimit;
  }

  const risk = input.risk;
  let exposureBounds: ExposureBound[] | undefined;
  if (risk) {
    if (compare(risk.group.stakeFactor, ZERO) <= 0) {
      out.push(restriction('player_limit', { types: ['risk_group'] }));
    }
    if (risk.eurRate) {
      const perUnit = winPerUnitStakeEur({ totalOdds: payoutOdds, legOdds: allOdds, eurRate: risk.eurRate });
      // an inner leg of a builder bears its builder's whole part (D61)
      const bound = riskMaxStake(
        legs,
        legs.map((l) => perUnit[l.unit] ?? ZERO),
        risk,
      );
      if (bound && (maxBet === undefined || compare(bound.maxStake, maxBet) < 0)) {
        maxBet = bound.maxStake;
        maxBetEvent = bound.sportEventId;
      }
      const stake = bet.stake;
      if (stake !== undefined && hasAtMostDecimals(stake, 6) && compare(risk.group.stakeFactor, ZERO) > 0) {
        exposureBounds = [];
        for (const leg of legs) {
          const limit = risk.liabilityLimit(leg.marketTypeId, leg.outcome.phase);
          const perUnitLeg = perUnit[leg.unit] ?? ZERO;
          if (limit === undefined || compare(perUnitLeg, ZERO) <= 0) continue;
          const upTo = sub(limit, div(mul(stake, perUnitLeg), risk.group.stakeFactor));
          exposureBounds.push({ key: outcomeKey(leg.outcome), upTo });
        }
      }
    } else if (legs.some((l) => risk.liabilityLimit(l.marketTypeId, l.outcome.phase) !== undefined)) {
      // exposure is kept in EUR: without a rate for the currency a limited outcome cannot be checked
      out.push(restriction('wl_defined', { rule: `no EUR rate for ${bet.currency} (EUR_RATES)` }));
    }
  }
  if (bet.stake !== undefined && maxBet !== undefined && compare(bet.stake, maxBet) > 0) {
    out.push(
      restriction('max_bet', {
        max_bet: formatMoney(maxBet),
        ...(maxBetEvent ? { sport_event_id: maxBetEvent } : {}),
      }),
    );
  }

  if (input.whiteLabel.betIntervalS > 0) {
    const seen = new Set<string>();
    for (const eventId of [...bet.selections, ...builders].map((s) => s.sport_event_id)) {
      if (seen.has(eventId)) continue;
      seen.add(eventId);
      const last = input.lastBetAt.get(eventId);
      if (last === undefined) continue;
      const waitMs = last + input.whiteLabel.betIntervalS * 1000 - input.now;
      if (waitMs > 0) {
        out.push(
          restriction('bet_interval', {
            sport_event_id: eventId,
            time_to_wait: formatOdds(rational(BigInt(Math.ceil(waitMs)), 1000n)),
          }),
        );
      }
    }
  }

  const exposures =
    bet.stake !== undefined && risk?.eurRate
      ? betExposure({ stake: bet.stake, totalOdds: payoutOdds, legOdds: allOdds, eurRate: risk.eurRate })
      : [];
  const known = maxBet !== undefined ? { max_bet: formatMoney(maxBet) } : {};
  return {
    restrictions: withKnownContext(out, { ...known, ...(firstEvent ? { sport_event_id: firstEvent } : {}) }),
    acceptedOdds,
    acceptedBuilderOdds,
    builderQuotes,
    totalOdds,
    maxBet,
    legs: legs.map((l) => ({ ...l, exposure: exposures[l.unit] ?? ZERO })),
    ...(exposureBounds ? { exposureBounds } : {}),
  };
}

/**
 * One builder of the bet: every inner leg against the acceptance rule (each failure once), then its price now
 * (`priceBuilder`: a refusal is declined `wl_defined` with the refusal's code and its message naming the leg), then
 * the odds strategy on the combined odds. Its inner legs are the risk legs of selection `unit`.
 */
function decideBuilder(
  input: BetDecisionInput,
  b: DecisionBuilder,
  index: number,
  unit: number,
): {
  restrictions: Restriction[];
  legs: { outcome: OutcomeKey; marketTypeId: string; unit: number; builder: number }[];
  odds: Rational;
  quote: BuilderQuote | undefined;
} {
  const event = input.event(b.sport_event_id);
  const failing = new Map<string, Restriction>();
  const legs = b.legs.map((leg) => {
    const ref = { sport_event_id: b.sport_event_id, market_id: leg.market_id, odd_id: leg.odd_id };
    for (const r of checkAcceptance(event, ref)) failing.set(JSON.stringify(r), r);
    const market =
      event && Object.hasOwn(event.markets, leg.market_id) ? event.markets[leg.market_id] : undefined;
    return {
      outcome: { ...ref, phase: phaseOf(event) },
      marketTypeId: String(market?.type_id ?? ''),
      unit,
      builder: index,
    };
  });
  const refused = (r: Restriction) => ({ restrictions: [r], legs, odds: b.odds, quote: undefined });
  if (failing.size > 0) return { restrictions: [...failing.values()], legs, odds: b.odds, quote: undefined };
  if (!input.priceBuilder) {
    return refused(
      restriction('wl_defined', {
        rule: `bet builder ${index}: no builder pricing`,
        sport_event_id: b.sport_event_id,
      }),
    );
  }
  const priced = input.priceBuilder(index);
  if (!priced.ok) {
    return refused(
      restriction('wl_defined', {
        rule: `bet builder ${index}: ${priced.refusal.message}`,
        reason: priced.refusal.code,
        sport_event_id: b.sport_event_id,
      }),
    );
  }
  const verdict = applyOddsStrategy({
    strategy: input.bet.oddsStrategy,
    requested: b.odds,
    current: priced.value.odds,
    tolerance: input.oddsTolerance,
    selection: {
      sport_event_id: b.sport_event_id,
      market_id: BUILDER_SELECTION_MARKET_ID,
      odd_id: String(index),
    },
  });
  if (!verdict.accepted) return { ...refused(verdict.restriction), quote: priced.value };
  return { restrictions: [], legs, odds: verdict.odds, quote: priced.value };
}
