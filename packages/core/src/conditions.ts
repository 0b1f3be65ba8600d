/**
 * Bonus conditions: when a freebet, a bet insurance or a bet boost applies to a bet (the callback contract, "Freebet conditions",
 * "Bet insurance conditions"; docs/adr/0009-bonuses.md).
 *
 * Wire shape (the callback contract): conditions are grouped under one condition of type `bet_details`, which holds one entry per
 * allowed bet type, each with its own conditions:
 *
 * ```json
 * [{ "type": "bet_details", "data": { "bet_details": [
 *   { "type": "single",  "data": { "odds_coefficient": { "min": "1.5" }, "sport": ["football"] } },
 *   { "type": "express", "data": { "odds_count": { "min": 3, "max": 5 }, "total_odds_coefficient": { "min": "4" } } }
 * ] } }]
 * ```
 *
 * A bet type without an entry is not allowed (condition `type`). Inside an entry:
 * - count ranges `{min?, max?}` of non-negative integers: `odds_count`, `bet_builder_odds_count`,
 *   `bet_builder_inner_odds_count`, `system_size`, `combinations_count`;
 * - odds ranges `{min?, max?}` of decimal strings (≥ 1, at most 12 decimals): `total_odds_coefficient`,
 *   `odds_coefficient`;
 * - id lists (non-empty arrays of strings; integers are taken as their decimal string): `sport`, `tournament`,
 *   `sport_event`, `market_types`, `competitor`. Every leg of the bet must match the list (a leg matches
 *   `competitor` when one of its sport event's competitors is listed).
 *
 * Bounds are inclusive. A condition that does not apply to the entry's bet type (the callback contract: `odds_count` and
 * `total_odds_coefficient` not for a single; `system_size` and `combinations_count` for a system only) is rejected
 * when the conditions are parsed, naming the field.
 *
 * Bet builders: a bet builder is one leg of the bet whose odds are the combined odds of its inner selections. It
 * counts in `odds_count`, its combined odds are what `odds_coefficient` checks, `bet_builder_odds_count` counts bet
 * builders, and `bet_builder_inner_odds_count` bounds the inner selections of every bet builder (a bet without a bet
 * builder never matches it).
 *
 * @packageDocumentation
 */
import { type BetType, combinationCount, isBetType } from './bet-types.js';
import { add, compare, div, fromInteger, mul, ONE, parseDecimal, type Rational, ZERO } from './decimal.js';
import { validationError } from './errors.js';
import { type Restriction, restriction } from './restrictions.js';

/** The conditions an entry of `bet_details` may carry (the callback contract, "Freebet conditions"), in the spec's order. */
export const CONDITION_NAMES = [
  'odds_count',
  'bet_builder_odds_count',
  'bet_builder_inner_odds_count',
  'total_odds_coefficient',
  'system_size',
  'combinations_count',
  'odds_coefficient',
  'sport',
  'tournament',
  'sport_event',
  'market_types',
  'competitor',
] as const;

/** One condition of a `bet_details` entry. */
export type ConditionName = (typeof CONDITION_NAMES)[number];

/** The bet types each condition applies to (the callback contract: "not applicable to single", "system only"). */
export const CONDITION_BET_TYPES: Readonly<Record<ConditionName, readonly BetType[]>> = {
  odds_count: ['express', 'system'],
  bet_builder_odds_count: ['single', 'express', 'system'],
  bet_builder_inner_odds_count: ['single', 'express', 'system'],
  total_odds_coefficient: ['express', 'system'],
  system_size: ['system'],
  combinations_count: ['system'],
  odds_coefficient: ['single', 'express', 'system'],
  sport: ['single', 'express', 'system'],
  tournament: ['single', 'express', 'system'],
  sport_event: ['single', 'express', 'system'],
  market_types: ['single', 'express', 'system'],
  competitor: ['single', 'express', 'system'],
};

const COUNT_CONDITIONS = [
  'odds_count',
  'bet_builder_odds_count',
  'bet_builder_inner_odds_count',
  'system_size',
  'combinations_count',
] as const;
const ODDS_CONDITIONS = ['total_odds_coefficient', 'odds_coefficient'] as const;
const LIST_CONDITIONS = ['sport', 'tournament', 'sport_event', 'market_types', 'competitor'] as const;

/** An inclusive range of counts; an absent bound is open. */
export interface CountRange {
  min?: number;
  max?: number;
}

/** An inclusive range of exact values (odds or money); an absent bound is open. */
export interface ValueRange {
  min?: Rational;
  max?: Rational;
}

/** The parsed conditions of one bet type (one `bet_details` entry). */
export interface BetTypeConditions {
  counts: Partial<Record<(typeof COUNT_CONDITIONS)[number], CountRange>>;
  odds: Partial<Record<(typeof ODDS_CONDITIONS)[number], ValueRange>>;
  lists: Partial<Record<(typeof LIST_CONDITIONS)[number], ReadonlySet<string>>>;
}

/** Parsed conditions: the entry of each allowed bet type. A bet type without an entry is not allowed. */
export interface Conditions {
  byType: Partial<Record<BetType, BetTypeConditions>>;
}

/** Conditions that allow every bet type with no further condition (a bonus created without conditions). */
export const ANY_BET: Conditions = Object.freeze({
  byType: {
    single: { counts: {}, odds: {}, lists: {} },
    express: { counts: {}, odds: {}, lists: {} },
    system: { counts: {}, odds: {}, lists: {} },
  },
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseCountRange(input: unknown, field: string): CountRange {
  if (!isObject(input)) throw validationError(field, 'must be a range {min?, max?}');
  const out: CountRange = {};
  for (const [k, v] of Object.entries(input)) {
    if (k !== 'min' && k !== 'max') throw validationError(`${field}.${k}`, 'is not an allowed field');
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw validationError(`${field}.${k}`, 'must be a non-negative integer');
    }
    out[k] = v;
  }
  if (out.min === undefined && out.max === undefined)
    throw validationError(field, 'must give min, max or both');
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    throw validationError(field, `min ${out.min} is above max ${out.max}`);
  }
  return out;
}

/**
 * Parses an inclusive range `{min?, max?}` of decimal strings (the decimal strings rule: never JSON numbers).
 *
 * @param opts.maxDecimals - most decimals of a bound (odds 12, money 6).
 * @param opts.atLeastOne - bounds must be ≥ 1 (odds).
 * @throws DomainError `validation_error` naming the field (e.g. `stake_amount_range.min`).
 */
export function parseValueRange(
  input: unknown,
  field: string,
  opts: { maxDecimals: number; atLeastOne?: boolean },
): ValueRange {
  if (!isObject(input)) throw validationError(field, 'must be a range {min?, max?}');
  const out: ValueRange = {};
  for (const [k, v] of Object.entries(input)) {
    if (k !== 'min' && k !== 'max') throw validationError(`${field}.${k}`, 'is not an allowed field');
    const value = parseDecimal(v, { field: `${field}.${k}`, maxDecimals: opts.maxDecimals });
    if (opts.atLeastOne && compare(value, ONE) < 0)
      throw validationError(`${field}.${k}`, 'must be at least 1');
    out[k] = value;
  }
  if (out.min === undefined && out.max === undefined)
    throw validationError(field, 'must give min, max or both');
  if (out.min && out.max && compare(out.min, out.max) > 0) throw validationError(field, 'min is above max');
  return out;
}

function parseIdList(input: unknown, field: string): ReadonlySet<string> {
  if (!Array.isArray(input) || input.length === 0)
    throw validationError(field, 'must be a non-empty list of ids');
  const out = new Set<string>();
  input.forEach((v, i) => {
    if (typeof v === 'string' && v.length > 0 && v.length <= 200) out.add(v);
    else if (typeof v === 'number' && Number.isSafeInteger(v)) out.add(String(v));
    else throw validationError(`${field}[${i}]`, 'must be a non-empty id string');
  });
  return out;
}

const AND = (types: readonly string[]) =>
  types.length === 1 ? `${types[0]} bets only` : `${types.slice(0, -1).join(', ')} and ${types.at(-1)} bets`;

function parseEntry(type: BetType, input: unknown, field: string): BetTypeConditions {
  const out: BetTypeConditions = { counts: {}, odds: {}, lists: {} };
  if (input === undefined) return out;
  if (!isObject(input)) throw validationError(field, 'must be an object of conditions');
  for (const [name, value] of Object.entries(input)) {
    const f = `${field}.${name}`;
    if (!(CONDITION_NAMES as readonly string[]).includes(name)) {
      throw validationError(f, `is not a condition; expected one of ${CONDITION_NAMES.join(', ')}`);
    }
    const cond = name as ConditionName;
    if (!CONDITION_BET_TYPES[cond].includes(type)) {
      throw validationError(
        f,
        `does not apply to a ${type} bet (${cond} applies to ${AND(CONDITION_BET_TYPES[cond])})`,
      );
    }
    if ((COUNT_CONDITIONS as readonly string[]).includes(cond)) {
      out.counts[cond as (typeof COUNT_CONDITIONS)[number]] = parseCountRange(value, f);
    } else if ((ODDS_CONDITIONS as readonly string[]).includes(cond)) {
      out.odds[cond as (typeof ODDS_CONDITIONS)[number]] = parseValueRange(value, f, {
        maxDecimals: 12,
        atLeastOne: true,
      });
    } else out.lists[cond as (typeof LIST_CONDITIONS)[number]] = parseIdList(value, f);
  }
  return out;
}

/**
 * Parses conditions in the wire shape of the callback contract (see the module comment) and checks that every condition applies
 * to its entry's bet type.
 *
 * @param input - the `conditions` array as sent; `undefined` or `[]` gives {@link ANY_BET} unless `required`.
 * @param opts.field - path named in errors (default `conditions`).
 * @param opts.required - at least one condition is required (freebets: the callback contract "At least one condition is required
 * on creation").
 * @throws DomainError `validation_error` naming the field, e.g.
 * `conditions[0].data.bet_details[0].data.odds_count: does not apply to a single bet (…)`.
 */
export function parseConditions(
  input: unknown,
  opts: { field?: string; required?: boolean } = {},
): Conditions {
  const field = opts.field ?? 'conditions';
  if (input === undefined || (Array.isArray(input) && input.length === 0)) {
    if (opts.required) throw validationError(field, 'at least one condition is required');
    return ANY_BET;
  }
  if (!Array.isArray(input)) throw validationError(field, 'must be a list of conditions');
  if (input.length > 1) {
    throw validationError(
      field,
      'must hold one condition of type bet_details (one entry per bet type inside it)',
    );
  }
  const top = input[0];
  const f0 = `${field}[0]`;
  if (!isObject(top)) throw validationError(f0, 'must be an object {type, data}');
  if (top.type !== 'bet_details') {
    throw validationError(
      `${f0}.type`,
      `must be "bet_details", got ${JSON.stringify(top.type) ?? 'nothing'}`,
    );
  }
  for (const k of Object.keys(top))
    if (k !== 'type' && k !== 'data') throw validationError(`${f0}.${k}`, 'is not an allowed field');
  if (!isObject(top.data)) throw validationError(`${f0}.data`, 'must be an object {bet_details: [...]}');
  for (const k of Object.keys(top.data)) {
    if (k !== 'bet_details') throw validationError(`${f0}.data.${k}`, 'is not an allowed field');
  }
  const details = top.data.bet_details;
  const fd = `${f0}.data.bet_details`;
  if (!Array.isArray(details) || details.length === 0) {
    throw validationError(fd, 'must list at least one bet type entry {type, data}');
  }
  const byType: Conditions['byType'] = {};
  details.forEach((entry, i) => {
    const fe = `${fd}[${i}]`;
    if (!isObject(entry)) throw validationError(fe, 'must be an object {type, data}');
    for (const k of Object.keys(entry))
      if (k !== 'type' && k !== 'data') throw validationError(`${fe}.${k}`, 'is not an allowed field');
    if (!isBetType(entry.type)) {
      throw validationError(
        `${fe}.type`,
        `must be single, express or system, got ${JSON.stringify(entry.type) ?? 'nothing'}`,
      );
    }
    if (byType[entry.type]) throw validationError(`${fe}.type`, `${entry.type} is listed twice`);
    byType[entry.type] = parseEntry(entry.type, entry.data, `${fe}.data`);
  });
  return { byType };
}

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

/** A bet builder leg: a {@link ConditionLeg} whose odds combine `innerCount` selections of one sport event. */
export interface ConditionBetBuilder extends ConditionLeg {
  innerCount: number;
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

function inCount(r: CountRange, n: number): boolean {
  return (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
}

function inValue(r: ValueRange, v: Rational): boolean {
  return (!r.min || compare(v, r.min) >= 0) && (!r.max || compare(v, r.max) <= 0);
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
  const legs: readonly ConditionLeg[] = [...bet.selections, ...builders];
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
  leg: ConditionLeg,
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
      return list.has(leg.marketTypeId);
    case 'competitor':
      return leg.competitorIds.some((c) => list.has(c));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Applicability of each bonus to a bet (the restrictions of the callback contract, "Restriction")
// ---------------------------------------------------------------------------------------------------------------

/** A bet as the bonus checks see it: its conditions facts, stake and currency. */
export interface BonusBet extends ConditionBet {
  /** Stake, bet currency, exact. */
  stake: Rational;
  /** ISO 4217 code of the bet. */
  currency: string;
}

/** The facts of a freebet that decide whether it applies (the callback contract, "Freebet conditions"). */
export interface FreebetTerms {
  id: string;
  /** ISO 4217 code the freebet is bound to (no conversion). */
  currency: string;
  /** Freebet amount: the stake of the bet must equal it. */
  amount: Rational;
  conditions: Conditions;
}

/**
 * Why a freebet does not apply to a bet (the callback contract, "Freebet conditions", this work), every failing restriction:
 * - another currency → `freebet_not_applicable` with condition `currency_code` (a freebet is bound to its currency);
 * - a stake other than the freebet amount → `freebet_amount` (both 6-decimal strings);
 * - a failing condition → `freebet_not_applicable` naming it.
 * The freebet's status (available, reserved for this bet…) is the caller's to check (`freebet_status`).
 *
 * @param formatAmount - writes money with 6 decimals (pass `formatMoney`).
 */
export function freebetRestrictions(
  terms: FreebetTerms,
  bet: BonusBet,
  formatAmount: (v: Rational) => string,
): Restriction[] {
  const out: Restriction[] = [];
  if (terms.currency !== bet.currency) {
    out.push(restriction('freebet_not_applicable', { freebet_id: terms.id, condition: 'currency_code' }));
  }
  if (compare(terms.amount, bet.stake) !== 0) {
    out.push(
      restriction('freebet_amount', {
        freebet_id: terms.id,
        freebet_amount: formatAmount(terms.amount),
        stake: formatAmount(bet.stake),
      }),
    );
  }
  const v = evaluateConditions(terms.conditions, bet);
  if (!v.ok)
    out.push(restriction('freebet_not_applicable', { freebet_id: terms.id, condition: v.condition }));
  return out;
}

/** The facts of a bet insurance that decide whether it applies (the callback contract, "Bet insurance conditions"). */
export interface InsuranceTerms {
  id: string;
  /** ISO 4217 code the insurance is bound to. */
  currency: string;
  conditions: Conditions;
  /** Range of the stake (bet currency); absent: any stake. */
  stakeAmountRange?: ValueRange;
}

/**
 * Why a bet insurance does not apply to a bet (the callback contract, "Bet insurance conditions"), every failing restriction:
 * - another currency → `insurance_not_applicable` with condition `currency_code`;
 * - a freebet bet → `insurance_not_applicable` with condition `freebet` (only a stake of the player's money is
 *   insured; docs/adr/0009-bonuses.md);
 * - a failing condition → `insurance_not_applicable` naming it;
 * - a stake outside `stake_amount_range` → `insurance_value` with reason `stake_amount_range`.
 */
export function insuranceRestrictions(
  terms: InsuranceTerms,
  bet: BonusBet & { freebet?: boolean },
): Restriction[] {
  const out: Restriction[] = [];
  const na = (condition: string) =>
    restriction('insurance_not_applicable', { insurance_id: terms.id, condition });
  if (terms.currency !== bet.currency) out.push(na('currency_code'));
  if (bet.freebet) out.push(na('freebet'));
  const v = evaluateConditions(terms.conditions, bet);
  if (!v.ok) out.push(na(v.condition));
  if (terms.stakeAmountRange && !inValue(terms.stakeAmountRange, bet.stake)) {
    out.push(restriction('insurance_value', { insurance_id: terms.id, reason: 'stake_amount_range' }));
  }
  return out;
}

/** The facts of a bet boost that decide whether it applies. */
export interface BoostTerms {
  id: string;
  conditions: Conditions;
}

/** Why a bet boost does not apply to a bet: a failing condition → `bonus_not_applicable` with its name as reason. */
export function boostRestrictions(terms: BoostTerms, bet: BonusBet): Restriction[] {
  const v = evaluateConditions(terms.conditions, bet);
  return v.ok ? [] : [restriction('bonus_not_applicable', { bonus_id: terms.id, reason: v.condition })];
}

/** Largest boost multiplier accepted (a guard against typing errors such as 110 for 1.10). */
export const MAX_BOOST_MULTIPLIER: Rational = fromInteger(100);

/**
 * Parses a bet boost multiplier (the boosted odds rule): a decimal string above 1 and at most 100, with at most 6 decimals,
 * e.g. `"1.1"` for a 10 % odds boost.
 *
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseBoostMultiplier(input: unknown, field = 'multiplier'): Rational {
  const m = parseDecimal(input, { field, maxDecimals: 6 });
  if (compare(m, ONE) <= 0) throw validationError(field, 'must be above 1');
  if (compare(m, MAX_BOOST_MULTIPLIER) > 0) throw validationError(field, 'must be at most 100');
  return m;
}
