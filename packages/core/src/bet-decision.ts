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
import type { BuilderQuote } from './bet-builder/builder-types.js';
import {
  type BetDecision,
  type BetDecisionInput,
  BUILDER_SELECTION_MARKET_ID,
  type DecisionBuilder,
  type DecisionSportEvent,
  type ExposureBound,
  type MarketPhase,
  type OutcomeKey,
  outcomeKey,
  type RiskState,
} from './bet-decision-shapes.js';
import { type BetType, validateBetType } from './bet-types.js';
import { BoundedMemo } from './bounded-memo.js';
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
import { applyOddsStrategy } from './odds-strategy.js';
import { type Restriction, restriction, withKnownContext } from './restrictions.js';
import { exactPayout } from './settlement.js';
import { FIXTURE_STATUS } from './statuses.js';

export * from './bet-decision-shapes.js';

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
  // a single is its odds, an express the product of its odds (up to the cap no express reaches): what the payout
  // below gives for those shapes, without its legs' settlement factors
  if (type === 'single' && odds.length === 1) return odds[0] as Rational;
  if (type === 'express' && odds.length >= 2) {
    let product = ONE;
    for (const o of odds) product = mul(product, o);
    return compare(product, NO_EXPRESS_CAP) > 0 ? NO_EXPRESS_CAP : product;
  }
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
const parsedOddValues = new BoundedMemo<Rational>(10_000);

function parseOddValue(value: string): Rational {
  const r = parsedOddValues.get(value);
  if (r !== undefined) return r;
  const m = /^(\d+)(?:\.(\d{1,12}))?$/.exec(value);
  if (!m) throw new RangeError(`bad feed odd value ${value}`);
  const frac = m[2] ?? '';
  return parsedOddValues.keep(value, rational(BigInt(`${m[1]}${frac}`), 10n ** BigInt(frac.length)));
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
  // plain odds only (most bets): the selections themselves are the type's selections, and its odds all its odds
  const plainOnly = builders.length === 0 && foreign.length === 0;
  out.push(
    ...validateBetType({
      type: bet.type,
      selections: plainOnly
        ? bet.selections
        : [
            ...bet.selections,
            ...builders.map((b) => ({ sport_event_id: b.sport_event_id })),
            ...foreign.map((f) => ({ sport_event_id: `foreign:${f.id}` })),
          ],
      systemSizes: bet.systemSizes,
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

  const allOdds = plainOnly
    ? acceptedOdds
    : [...acceptedOdds, ...acceptedBuilderOdds, ...foreign.map((f) => f.odds)];
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
