import type { SportEvent } from '@bookie/contracts';
import {
  applyOddsStrategy,
  type BetType,
  checkAcceptance,
  compare,
  div,
  exactPayout,
  formatMoney,
  formatOdds,
  fromInteger,
  mul,
  type OddsStrategy,
  ONE,
  parseDecimal,
  type Rational,
  type Restriction,
  restriction,
  roundDown,
  validateBetType,
  withKnownContext,
} from '@bookie/core';
import type { WhiteLabel } from '../tenants/white-label.js';

/** A selection as the player sent it: ids and the odds the player saw (decimal string). */
export interface RequestedSelection {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  odds: Rational;
}

/** A bet being placed, parsed and exact. */
export interface PlacementRequest {
  betType: BetType;
  systemSizes: number[];
  stake: Rational;
  currency: string;
  oddsStrategy: OddsStrategy;
  selections: RequestedSelection[];
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
}

/** Outcome of validation: every failing restriction, and the odds each selection is accepted at. */
export interface PlacementVerdict {
  restrictions: Restriction[];
  acceptedOdds: Rational[];
  /** Π accepted odds (express), the odds of a single, or Σ combination odds / N for a system. */
  totalOdds: Rational;
}

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
  const legs = odds.map((o) => ({ odds: o, status: 1 as const }));
  const huge = fromInteger(10n ** 30n);
  return exactPayout({
    betType,
    stake: ONE,
    legs,
    ...(betType === 'system' ? { systemSizes } : {}),
    expressCap: huge,
  }).value;
}

/**
 * Validates a bet against the live book and the white label's rules (issue 7 step 3): the bet-acceptance rule
 * (spec 02), the odds acceptance strategy (spec 01), bet type rules, min/max stake, max payout and the express
 * cap (D17), and bet_interval. Returns every failing restriction (empty = accept) and the accepted odds.
 */
export function validatePlacement(req: PlacementRequest, ctx: PlacementContext): PlacementVerdict {
  const out: Restriction[] = [];
  const firstEvent = req.selections[0]?.sport_event_id;
  out.push(
    ...validateBetType({
      type: req.betType,
      selections: req.selections,
      systemSizes: req.systemSizes,
      ...(ctx.maxCombinations !== undefined ? { maxCombinations: ctx.maxCombinations } : {}),
    }),
  );

  const acceptedOdds: Rational[] = [];
  for (const sel of req.selections) {
    const ref = { sport_event_id: sel.sport_event_id, market_id: sel.market_id, odd_id: sel.odd_id };
    const event = ctx.events.get(sel.sport_event_id);
    const failing = checkAcceptance(event, ref);
    out.push(...failing);
    const current = event?.markets[sel.market_id]?.odds[sel.odd_id]?.value;
    if (failing.length > 0 || current === undefined) {
      acceptedOdds.push(sel.odds);
      continue;
    }
    const verdict = applyOddsStrategy({
      strategy: req.oddsStrategy,
      requested: sel.odds,
      current: parseDecimal(current, { field: 'odds', maxDecimals: 12 }),
      tolerance: ctx.oddsTolerance,
      selection: ref,
    });
    if (verdict.accepted) acceptedOdds.push(verdict.odds);
    else {
      out.push(verdict.restriction);
      acceptedOdds.push(sel.odds);
    }
  }

  const { minStake, maxStake, maxPayout } = ctx.whiteLabel.limits;
  if (minStake !== null && compare(req.stake, parseDecimal(minStake, { field: 'min_stake' })) < 0) {
    out.push(restriction('min_bet', { min_bet: minStake }));
  }
  let maxBet: Rational | undefined =
    maxStake !== null ? parseDecimal(maxStake, { field: 'max_stake' }) : undefined;
  const totalOdds = totalOddsOf(req.betType, acceptedOdds, req.systemSizes, ctx.maxCombinations);
  // the largest stake whose potential payout stays within max payout and, for combinations, the express cap
  const payoutLimits: Rational[] = [];
  if (maxPayout !== null) payoutLimits.push(parseDecimal(maxPayout, { field: 'max_payout' }));
  if (req.betType !== 'single') {
    if (ctx.expressCap) payoutLimits.push(ctx.expressCap);
    // without a rate the 50,000 EUR cap (D17) cannot be applied: refuse rather than settle uncapped
    else out.push(restriction('wl_defined', { rule: `no EUR rate for ${req.currency} (EUR_RATES)` }));
  }
  // a boosted bet pays on the boosted odds (D19): limit the stake by those
  const payoutOdds = ctx.boostMultiplier ? mul(totalOdds, ctx.boostMultiplier) : totalOdds;
  for (const limit of payoutLimits) {
    const stakeForLimit = roundDown(div(limit, payoutOdds), 6);
    if (maxBet === undefined || compare(stakeForLimit, maxBet) < 0) maxBet = stakeForLimit;
  }
  if (maxBet !== undefined && compare(req.stake, maxBet) > 0) {
    out.push(
      restriction('max_bet', {
        max_bet: formatMoney(maxBet),
        ...(firstEvent ? { sport_event_id: firstEvent } : {}),
      }),
    );
  }

  if (ctx.whiteLabel.betIntervalS > 0) {
    const seen = new Set<string>();
    for (const sel of req.selections) {
      if (seen.has(sel.sport_event_id)) continue;
      seen.add(sel.sport_event_id);
      const last = ctx.lastBetAt.get(sel.sport_event_id);
      if (!last) continue;
      const waitMs = last.getTime() + ctx.whiteLabel.betIntervalS * 1000 - ctx.now;
      if (waitMs > 0) {
        const seconds = parseDecimal((waitMs / 1000).toFixed(3), { field: 'time_to_wait' });
        out.push(
          restriction('bet_interval', {
            sport_event_id: sel.sport_event_id,
            time_to_wait: formatOdds(seconds),
          }),
        );
      }
    }
  }
  const known = maxBet !== undefined ? { max_bet: formatMoney(maxBet) } : {};
  return {
    restrictions: withKnownContext(out, { ...known, ...(firstEvent ? { sport_event_id: firstEvent } : {}) }),
    acceptedOdds,
    totalOdds,
  };
}

/** True when the selections sit on a live sport event (fixture status 1): bet delay applies (spec 03 "Bet delay"). */
export function hasLiveSelection(
  req: PlacementRequest,
  events: ReadonlyMap<string, SportEvent | undefined>,
): boolean {
  return req.selections.some((s) => events.get(s.sport_event_id)?.fixture.status === 1);
}
