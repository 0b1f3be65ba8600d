/**
 * Matching bonus conditions against a bet (the callback contract, "Freebet conditions"): the bet as conditions see it, its
 * total odds, and the verdict of {@link evaluateConditions}. Parsing the conditions is in conditions.ts.
 */
import { type BetType, combinationCount } from './bet-types.js';
import { CONDITION_NAMES, type ConditionName, LIST_CONDITIONS } from './condition-names.js';
import { inCount, inValue } from './condition-ranges.js';
import type { Conditions, CountRange, ValueRange } from './conditions.js';
import { add, div, fromInteger, mul, ONE, type Rational, ZERO } from './decimal.js';

/** One leg of a bet as conditions see it: its odds and the facts of its sport event and market. */
export interface ConditionLeg {
  /** Decimal odds of the leg (a bet builder: its combined odds). */
  odds: Rational;
  sportId: string;
  tournamentId: string;
  sportEventId: string;
  /** Market type id (the feed contract's market `type_id`, as a string). */
  marketTypeId: string;
  /** Ids of the sport event's competitors. */
  competitorIds: readonly string[];
}

/**
 * A bet builder leg: a {@link ConditionLeg} whose odds are the combined odds of `innerCount` selections of one sport
 * event (the bet builder conditions rule, docs/decisions.md). `odds_count`, `total_odds_coefficient` and the lists
 * count it as one leg at its combined odds; `market_types` checks every inner market type when
 * `innerMarketTypeIds` is given (else `marketTypeId`).
 */
export interface ConditionBetBuilder extends ConditionLeg {
  /** Number of inner selections. */
  innerCount: number;
  /** Market type ids of the inner selections (the feed contract's `type_id`, as strings), one per inner leg. */
  innerMarketTypeIds?: readonly string[];
}

/** A bet as conditions see it. */
export interface ConditionBet {
  betType: BetType;
  /** System sizes (system only; ignored otherwise). */
  systemSizes: readonly number[];
  /** Ordinary legs. */
  selections: readonly ConditionLeg[];
  /** Bet builder legs (Bookie's frame has none yet). */
  betBuilders?: readonly ConditionBetBuilder[];
}

/** Outcome of {@link evaluateConditions}: `condition` names the first failing one (`type`: no entry for the bet type). */
export type ConditionVerdict =
  | { ok: true }
  | { ok: false; condition: ConditionName | 'type'; message: string };

/**
 * The total odds of a bet before any boost: Π odds of a single or express; for a system the potential payout per
 * unit of stake, Σ over its N combinations of Π odds / N (the leg factors rule), computed exactly with elementary symmetric
 * polynomials. A system whose sizes do not fit its legs has total odds 0.
 */
export function conditionTotalOdds(
  betType: BetType,
  odds: readonly Rational[],
  systemSizes: readonly number[],
): Rational {
  if (betType !== 'system') return odds.reduce(mul, ONE);
  const n = odds.length;
  const sizes = systemSizes.filter((k) => Number.isInteger(k) && k >= 1 && k <= n);
  const combos = combinationCount(n, sizes);
  if (combos === 0) return ZERO;
  const maxK = Math.max(...sizes);
  const e: Rational[] = [ONE, ...Array.from({ length: maxK }, () => ZERO)];
  for (const f of odds)
    for (let j = maxK; j >= 1; j--) e[j] = add(e[j] as Rational, mul(e[j - 1] as Rational, f));
  const total = [...new Set(sizes)].reduce((acc, k) => add(acc, e[k] as Rational), ZERO);
  return div(total, fromInteger(combos));
}

function show(r: CountRange | ValueRange): string {
  const s = (v: number | Rational | undefined) =>
    v === undefined ? '' : typeof v === 'number' ? String(v) : fmt(v);
  return `${s(r.min)}..${s(r.max)}`;
}

function fmt(v: Rational): string {
  // exact short form for messages: integer part and up to 12 decimals, trailing zeros trimmed
  const scale = 10n ** 12n;
  const scaled = (v.num * scale) / v.den;
  const int = scaled / scale;
  const frac = (scaled % scale).toString().padStart(12, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : String(int);
}

/**
 * Evaluates conditions against a bet (the callback contract, "Freebet conditions"): the bet's type must have an entry, and every
 * condition of that entry must hold (bounds inclusive; every leg must match each id list).
 *
 * @returns `{ok: true}`, or the first failing condition (in {@link CONDITION_NAMES} order) with a message.
 */
export function evaluateConditions(conditions: Conditions, bet: ConditionBet): ConditionVerdict {
  const entry = conditions.byType[bet.betType];
  if (!entry) {
    const allowed = Object.keys(conditions.byType).join(', ');
    return {
      ok: false,
      condition: 'type',
      message: `a ${bet.betType} bet is not allowed (allowed: ${allowed})`,
    };
  }
  const builders = bet.betBuilders ?? [];
  const legs: readonly (ConditionLeg & { innerMarketTypeIds?: readonly string[] })[] = [
    ...bet.selections,
    ...builders,
  ];
  const fail = (condition: ConditionName, message: string): ConditionVerdict => ({
    ok: false,
    condition,
    message: `${condition}: ${message}`,
  });
  for (const name of CONDITION_NAMES) {
    if (name === 'odds_count' && entry.counts.odds_count) {
      const r = entry.counts.odds_count;
      if (!inCount(r, legs.length)) return fail(name, `the bet has ${legs.length} legs; allowed ${show(r)}`);
    } else if (name === 'bet_builder_odds_count' && entry.counts.bet_builder_odds_count) {
      const r = entry.counts.bet_builder_odds_count;
      if (!inCount(r, builders.length))
        return fail(name, `the bet has ${builders.length} bet builders; allowed ${show(r)}`);
    } else if (name === 'bet_builder_inner_odds_count' && entry.counts.bet_builder_inner_odds_count) {
      const r = entry.counts.bet_builder_inner_odds_count;
      if (builders.length === 0) return fail(name, 'the bet has no bet builder');
      const bad = builders.find((b) => !inCount(r, b.innerCount));
      if (bad) return fail(name, `a bet builder has ${bad.innerCount} selections; allowed ${show(r)}`);
    } else if (name === 'total_odds_coefficient' && entry.odds.total_odds_coefficient) {
      const r = entry.odds.total_odds_coefficient;
      const total = conditionTotalOdds(
        bet.betType,
        legs.map((l) => l.odds),
        bet.systemSizes,
      );
      if (!inValue(r, total)) return fail(name, `total odds ${fmt(total)} are outside ${show(r)}`);
    } else if (name === 'system_size' && entry.counts.system_size) {
      const r = entry.counts.system_size;
      const n = bet.systemSizes.length;
      if (!inCount(r, n)) return fail(name, `the system has ${n} sizes; allowed ${show(r)}`);
    } else if (name === 'combinations_count' && entry.counts.combinations_count) {
      const r = entry.counts.combinations_count;
      const n = combinationCount(legs.length, bet.systemSizes);
      if (!inCount(r, n)) return fail(name, `the system has ${n} combinations; allowed ${show(r)}`);
    } else if (name === 'odds_coefficient' && entry.odds.odds_coefficient) {
      const r = entry.odds.odds_coefficient;
      const bad = legs.find((l) => !inValue(r, l.odds));
      if (bad) return fail(name, `odds ${fmt(bad.odds)} are outside ${show(r)}`);
    } else if ((LIST_CONDITIONS as readonly string[]).includes(name)) {
      const list = entry.lists[name as (typeof LIST_CONDITIONS)[number]];
      if (!list) continue;
      const bad = legs.find((l) => !legMatches(name as (typeof LIST_CONDITIONS)[number], l, list));
      if (bad) return fail(name, `sport event ${bad.sportEventId} does not match the ${name} list`);
    }
  }
  return { ok: true };
}

function legMatches(
  name: (typeof LIST_CONDITIONS)[number],
  leg: ConditionLeg & { innerMarketTypeIds?: readonly string[] },
  list: ReadonlySet<string>,
): boolean {
  switch (name) {
    case 'sport':
      return list.has(leg.sportId);
    case 'tournament':
      return list.has(leg.tournamentId);
    case 'sport_event':
      return list.has(leg.sportEventId);
    case 'market_types':
      // a bet builder matches when every inner market type is listed
      return leg.innerMarketTypeIds
        ? leg.innerMarketTypeIds.every((t) => list.has(t))
        : list.has(leg.marketTypeId);
    case 'competitor':
      return leg.competitorIds.some((c) => list.has(c));
  }
}
