import type { SportEvent } from '@bookie/contracts';
import {
  type BetDecision,
  type BetType,
  BoundedMemo,
  type BuilderLegRef,
  type BuilderSettings,
  betTotalOdds,
  decideBet,
  mul,
  type OddsStrategy,
  ONE,
  parseDecimal,
  type Rational,
  type RiskState,
  validateBetType,
} from '@bookie/core';
import { repriceBuilder } from '../bet-builder/index.js';
import type { WhiteLabel } from '../tenants/index.js';

/** A selection as the player sent it: ids and the odds the player saw (decimal string). */
export interface RequestedSelection {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  odds: Rational;
}

/**
 * A bet builder as the player sent it (docs/adr/0043-bet-builder-bets.md): its sport event, its inner legs, the
 * combined odds the player saw, and the builder quote it was offered, when sent.
 */
export interface RequestedBuilder {
  sport_event_id: string;
  legs: BuilderLegRef[];
  odds: Rational;
  /** The signed quote of the builder calculator, when the player sent it; the builder is repriced either way. */
  quote?: string;
}

/** A bet being placed, parsed and exact. */
export interface PlacementRequest {
  betType: BetType;
  systemSizes: number[];
  /** An MTS or advisory bet's `type.system_sizes` as sent: the decision checks them against the selections. */
  typeSizes?: number[];
  /** Undefined asks only for the largest acceptable stake (`GET /restrictions`). */
  stake?: Rational;
  currency: string;
  oddsStrategy: OddsStrategy;
  selections: RequestedSelection[];
  /** The bet builders: each one selection at its combined odds (none: plain odds only). */
  builders?: RequestedBuilder[];
  /** Foreign selections of a partner-reported mixed combo: their odds multiply into the total. */
  foreignSelections?: Array<{ id: string; odds: Rational }>;
}

/** What validation reads besides the request. */
export interface PlacementContext {
  /** Current snapshots by sport event id (from the live replica); missing = unknown event. */
  events: ReadonlyMap<string, SportEvent | undefined>;
  whiteLabel: Pick<WhiteLabel, 'limits' | 'betIntervalS'>;
  /** Now, unix ms. */
  now: number;
  /** When this player's last accepted bet on each sport event was made. */
  lastBetAt: ReadonlyMap<string, Date>;
  /** The express cap of D17 in the bet currency; undefined when no EUR rate is configured for it. */
  expressCap: Rational | undefined;
  /** Strategy-1 tolerance (relative fraction). */
  oddsTolerance: Rational;
  /** Most combinations a system bet may have (`SYSTEM_MAX_COMBINATIONS`); more is declined `bet_type`. */
  maxCombinations?: number;
  /**
   * The bet's boost multiplier (D19), when it reserved a boost: the potential payout that max payout and the express
   * cap limit is then on the boosted odds, as settlement pays it.
   */
  boostMultiplier?: Rational;
  /** The risk engine's facts (exposure, limits, the player's group); undefined: the engine is off. */
  risk?: RiskState;
  /** The white label's builder settings (margin, most legs); required to accept a bet with builders. */
  builderSettings?: BuilderSettings;
}

/**
 * The platform's settings the one decision reads for a bet in `currency` — the express cap, the odds tolerance and
 * the most combinations of a system bet — the same for a placement, a reported bet, advice and `GET /restrictions`.
 */
export function decisionSettings(
  settings: {
    expressCap(currency: string): Rational | undefined;
    oddsTolerance: Rational;
    maxSystemCombinations?: number | undefined;
  },
  currency: string,
): Pick<PlacementContext, 'expressCap' | 'oddsTolerance' | 'maxCombinations'> {
  return {
    expressCap: settings.expressCap(currency),
    oddsTolerance: settings.oddsTolerance,
    ...(settings.maxSystemCombinations !== undefined
      ? { maxCombinations: settings.maxSystemCombinations }
      : {}),
  };
}

/**
 * Outcome of validation: core's decision as it gives it ({@link BetDecision}: every failing restriction, the odds each
 * selection and builder is accepted at, the total odds, the largest acceptable stake, risk's legs and exposure bounds).
 */
export type PlacementVerdict = BetDecision;

/**
 * The total odds of a bet: potential payout per unit of stake, with every leg winning (no caps). A bet whose type
 * does not fit its selections (declined `bet_type`: a one-selection express, a system of too many combinations…)
 * gets the product of its odds, so forming and declining it never fails.
 */
export function totalOddsOf(
  betType: BetType,
  odds: readonly Rational[],
  systemSizes: readonly number[],
  maxCombinations?: number,
): Rational {
  const shapeFails =
    validateBetType({
      type: betType,
      selections: odds.map((_, i) => ({ sport_event_id: String(i) })),
      systemSizes,
      ...(maxCombinations !== undefined ? { maxCombinations } : {}),
    }).length > 0;
  if (shapeFails) return odds.reduce(mul, ONE);
  return betTotalOdds(betType, odds, systemSizes);
}

/** White labels' limits parsed once per text (every decision reads them; a refused text is not kept). */
const parsedLimits = new BoundedMemo<Rational>(10_000);
const money = (s: string | null, field: string): Rational | undefined => {
  if (s === null) return undefined;
  return parsedLimits.get(s) ?? parsedLimits.keep(s, parseDecimal(s, { field, maxDecimals: 6 }));
};

/**
 * Validates a bet against the live book, the white label's rules and the risk engine: the one decision of core
 * ({@link decideBet}) on the facts the decision unit gathered (`decide-bet.ts`). Returns every failing restriction
 * (empty = accept), the accepted odds, the largest acceptable stake and the exposure the bet adds.
 */
export function validatePlacement(req: PlacementRequest, ctx: PlacementContext): PlacementVerdict {
  const { minStake, maxStake, maxPayout } = ctx.whiteLabel.limits;
  const minS = money(minStake, 'min_stake');
  const maxS = money(maxStake, 'max_stake');
  const maxP = money(maxPayout, 'max_payout');
  // absent facts are undefined members (the decision reads each as absent): no object per optional part
  return decideBet({
    bet: {
      type: req.betType,
      systemSizes: req.systemSizes,
      typeSizes: req.typeSizes,
      stake: req.stake,
      currency: req.currency,
      oddsStrategy: req.oddsStrategy,
      selections: req.selections,
      builders: req.builders,
      foreignSelections: req.foreignSelections,
    },
    event: (id) => ctx.events.get(id),
    whiteLabel: {
      minStake: minS,
      maxStake: maxS,
      maxPayout: maxP,
      betIntervalS: ctx.whiteLabel.betIntervalS,
    },
    now: ctx.now,
    lastBetAt: millisOf(ctx.lastBetAt),
    expressCap: ctx.expressCap,
    oddsTolerance: ctx.oddsTolerance,
    maxCombinations: ctx.maxCombinations,
    boostMultiplier: ctx.boostMultiplier,
    risk: ctx.risk,
    priceBuilder: ctx.builderSettings ? builderPricer(req, ctx.events, ctx.builderSettings) : undefined,
  });
}

const NO_TIMES: ReadonlyMap<string, number> = new Map();

/** The player's last bet times as unix ms, by sport event. */
function millisOf(times: ReadonlyMap<string, Date>): ReadonlyMap<string, number> {
  if (times.size === 0) return NO_TIMES;
  const out = new Map<string, number>();
  for (const [k, v] of times) out.set(k, v.getTime());
  return out;
}

/**
 * The repricing of the request's builders on the snapshots decided on (asked by core's decision only for a builder
 * whose legs pass the acceptance rule, so its event is known).
 */
function builderPricer(
  req: PlacementRequest,
  events: ReadonlyMap<string, SportEvent | undefined>,
  settings: BuilderSettings,
) {
  return (index: number) => {
    const b = (req.builders ?? [])[index] as RequestedBuilder;
    return repriceBuilder(events.get(b.sport_event_id) as SportEvent, b.legs, settings);
  };
}

/** Every sport event a bet selects (plain selections and builders), each once, in bet order. */
export function requestSportEvents(req: Pick<PlacementRequest, 'selections' | 'builders'>): string[] {
  const out: string[] = [];
  for (const s of req.selections) if (!out.includes(s.sport_event_id)) out.push(s.sport_event_id);
  for (const b of req.builders ?? []) if (!out.includes(b.sport_event_id)) out.push(b.sport_event_id);
  return out;
}

/**
 * Every platform leg of a bet as an outcome reference: its plain selections, then the inner legs of each builder
 * (the order of core's decision legs and of the bet's stored selections).
 */
export function requestLegs(
  req: Pick<PlacementRequest, 'selections' | 'builders'>,
): Array<{ sport_event_id: string; market_id: string; odd_id: string }> {
  // plain selections only: they are the legs (a caller reads them, never changes them)
  if (!req.builders || req.builders.length === 0) return req.selections;
  return [
    ...req.selections,
    ...(req.builders ?? []).flatMap((b) =>
      b.legs.map((l) => ({ sport_event_id: b.sport_event_id, market_id: l.market_id, odd_id: l.odd_id })),
    ),
  ];
}

/** True when the selections sit on a live sport event (fixture status 1): bet delay applies (spec 03 "Bet delay"). */
export function hasLiveSelection(
  req: PlacementRequest,
  events: ReadonlyMap<string, SportEvent | undefined>,
): boolean {
  return requestSportEvents(req).some((id) => events.get(id)?.fixture.status === 1);
}
