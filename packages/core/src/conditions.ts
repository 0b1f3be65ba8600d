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
import { type BetType, isBetType } from './bet-types.js';
import type { ConditionName } from './condition-names.js';
import {
  CONDITION_BET_TYPES,
  CONDITION_NAMES,
  COUNT_CONDITIONS,
  type LIST_CONDITIONS,
  ODDS_CONDITIONS,
} from './condition-names.js';
import { compare, ONE, parseDecimal, type Rational } from './decimal.js';
import { validationError } from './errors.js';

export { CONDITION_BET_TYPES, CONDITION_NAMES, type ConditionName } from './condition-names.js';

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
