/**
 * Bet types — single, express, system — their wire codes and rules, and the combinations of a system
 * (the callback contract, "Bet types", the MTS and advisory contract, "Type rules", the callback bet type rule, the leg factors rule).
 *
 * @packageDocumentation
 */
import { BET_TYPES, type BetType } from './bet-type-names.js';
import { validationError } from './errors.js';
import { repeatedSportEvents } from './express.js';
import { type BetTypeViolation, type Restriction, restriction } from './restrictions.js';
import { exceedsCombinations, MAX_SYSTEM_COMBINATIONS, systemSizeViolations } from './system.js';

export { BET_TYPES, type BetType, isBetType } from './bet-type-names.js';
export { repeatedSportEvents } from './express.js';
// the system's combinations are part of the bet types' surface
export {
  binomial,
  combinationCount,
  combinations,
  MAX_SYSTEM_COMBINATIONS,
  systemCombinations,
} from './system.js';

/** Callback `bet_type` codes (the callback bet type rule): 1 single, 2 express, 3 system. */
export const CALLBACK_BET_TYPE = { single: 1, express: 2, system: 3 } as const;
/** MTS and advisory `type.code` (the MTS and advisory contract, "Type rules"): 0 single, 1 express (accumulator), 2 system. */
export const MTS_BET_TYPE = { single: 0, express: 1, system: 2 } as const;

/** The callback `bet_type` code of a bet type (the callback bet type rule). */
export function callbackBetTypeCode(type: BetType): 1 | 2 | 3 {
  return CALLBACK_BET_TYPE[type];
}

/**
 * The bet type of a callback `bet_type` code (the callback bet type rule).
 *
 * @throws DomainError `validation_error` naming `field` for any other value.
 */
export function betTypeFromCallbackCode(code: unknown, field = 'bet_type'): BetType {
  const found = BET_TYPES.find((t) => CALLBACK_BET_TYPE[t] === code);
  if (!found)
    throw validationError(field, `must be 1 (single), 2 (express) or 3 (system), got ${String(code)}`);
  return found;
}

/** The MTS/advisory `type.code` of a bet type (the MTS and advisory contract, "Type rules"). */
export function mtsBetTypeCode(type: BetType): 0 | 1 | 2 {
  return MTS_BET_TYPE[type];
}

/**
 * The bet type of an MTS/advisory `type.code` (the MTS and advisory contract, "Type rules").
 *
 * @throws DomainError `validation_error` naming `field` for any other value.
 */
export function betTypeFromMtsCode(code: unknown, field = 'type.code'): BetType {
  const found = BET_TYPES.find((t) => MTS_BET_TYPE[t] === code);
  if (!found)
    throw validationError(field, `must be 0 (single), 1 (express) or 2 (system), got ${String(code)}`);
  return found;
}

/**
 * The MTS/advisory `type.system_sizes` of a bet (the MTS and advisory contract, "Type rules"): `[1]` for a single, `[n]` for an express of
 * n selections, the chosen sizes (ascending) for a system.
 *
 * @param selectionCount - number of selections n.
 * @param systemSizes - the chosen sizes; required for a system.
 */
export function mtsSystemSizes(
  type: BetType,
  selectionCount: number,
  systemSizes: readonly number[] = [],
): number[] {
  if (type === 'single') return [1];
  if (type === 'express') return [selectionCount];
  return [...systemSizes].sort((a, b) => a - b);
}

/** A selection as bet-type rules see it: only its sport event matters. */
export interface BetTypeSelection {
  /** Sport event id of the selection. */
  sport_event_id: string;
}

/** Input of {@link validateBetType}. */
export interface BetTypeInput {
  /** Bet type name. */
  type: BetType;
  /** The selections (legs), in bet order. */
  selections: readonly BetTypeSelection[];
  /** System sizes; required for a system, ignored otherwise. */
  systemSizes?: readonly number[];
  /**
   * The `type.system_sizes` of an MTS or advisory bet as sent (the MTS and advisory contract, "Type rules"): a single
   * must carry `[1]` and an express `[n]`, n counting every selection (else `system_sizes_mismatch`); a system's
   * are its `systemSizes`. Absent for a bet that names its type otherwise (the frame API, the bet calculator).
   */
  typeSizes?: readonly number[];
  /** Most combinations a system may have (default {@link MAX_SYSTEM_COMBINATIONS}). */
  maxCombinations?: number;
}

/**
 * Checks a bet's type against its selections (the callback contract, "Bet types" and "Limits", the MTS and advisory contract, "Type rules"):
 * a single has exactly one selection; an express at least two, on distinct sport events; a system at least two
 * selections on distinct sport events (each combination is an express) and sizes that are distinct integers in
 * 2..n, at most `maxCombinations` (default {@link MAX_SYSTEM_COMBINATIONS}) combinations in all. An express has no
 * maximum number of selections (the callback contract). With `typeSizes` (an MTS or advisory type), a single must
 * carry `[1]` and an express `[n]`.
 *
 * @returns every failing rule as a `bet_type` restriction (context `bet_type`, `reason`, `sport_event_id` for a
 * repeated event, `expected_system_sizes` for a mismatch); an empty array when the type is valid.
 */
export function validateBetType(input: BetTypeInput): Restriction<'bet_type'>[] {
  const { type, selections } = input;
  const n = selections.length;
  const out: Restriction<'bet_type'>[] = [];
  const maxCombinations = input.maxCombinations ?? MAX_SYSTEM_COMBINATIONS;
  const fail = (reason: BetTypeViolation, sportEventId?: string, expectedSizes?: readonly number[]): void => {
    out.push(
      restriction('bet_type', {
        bet_type: type,
        reason,
        ...(sportEventId !== undefined ? { sport_event_id: sportEventId } : {}),
        ...(reason === 'too_many_combinations' ? { max_combinations: maxCombinations } : {}),
        ...(expectedSizes ? { expected_system_sizes: [...expectedSizes] } : {}),
      }),
    );
  };
  // an MTS or advisory type names its size: [1] for a single, [n] for an express
  const sizesMustBe = (want: number): void => {
    const got = input.typeSizes;
    if (got && !(got.length === 1 && got[0] === want)) fail('system_sizes_mismatch', undefined, [want]);
  };
  if (type === 'single') {
    if (n !== 1) fail('single_needs_one_selection', selections[0]?.sport_event_id);
    sizesMustBe(1);
    return out;
  }
  if (n < 2) fail(type === 'express' ? 'express_needs_two_selections' : 'system_needs_two_selections');
  for (const id of repeatedSportEvents(selections)) fail('selections_on_same_sport_event', id);
  if (type === 'express') sizesMustBe(n);
  if (type === 'system') {
    const sizes = input.systemSizes ?? [];
    for (const reason of systemSizeViolations(n, sizes, maxCombinations)) fail(reason);
  }
  return out;
}

/**
 * Checks the shape of a bet whose sport events are not known (settlement, the bet calculator): leg count per type
 * and system sizes, as {@link validateBetType} does.
 *
 * @param legCount - number of legs n.
 * @param fields - names of the fields for errors (default `legs` and `system_sizes`).
 * @throws DomainError `validation_error` naming `legs`, `system_sizes` or `system_sizes[i]`.
 */
export function assertBetShape(
  type: BetType,
  legCount: number,
  systemSizes: readonly number[] | undefined,
  fields: { legs?: string; systemSizes?: string } = {},
): void {
  const legsField = fields.legs ?? 'legs';
  const sizesField = fields.systemSizes ?? 'system_sizes';
  if (type === 'single' && legCount !== 1)
    throw validationError(legsField, `a single has exactly 1 leg, got ${legCount}`);
  if (type !== 'single' && legCount < 2)
    throw validationError(legsField, `a ${type} needs at least 2 legs, got ${legCount}`);
  if (type !== 'system') return;
  if (!systemSizes || systemSizes.length === 0)
    throw validationError(sizesField, 'a system needs at least one size');
  const seen = new Set<number>();
  systemSizes.forEach((k, i) => {
    if (!Number.isInteger(k) || k < 2 || k > legCount) {
      throw validationError(
        `${sizesField}[${i}]`,
        `must be an integer from 2 to ${legCount}, got ${String(k)}`,
      );
    }
    if (seen.has(k)) throw validationError(`${sizesField}[${i}]`, `size ${k} is repeated`);
    seen.add(k);
  });
  if (exceedsCombinations(legCount, systemSizes, MAX_SYSTEM_COMBINATIONS)) {
    throw validationError(sizesField, `more combinations than the limit of ${MAX_SYSTEM_COMBINATIONS}`);
  }
}

/** An MTS/advisory `type` object read for the decision (see {@link readMtsType}). */
export interface MtsType {
  /** The bet type of `type.code`. */
  betType: BetType;
  /** The sizes of a system (as sent); empty for a single or an express. */
  systemSizes: number[];
  /** `type.system_sizes` as sent, for {@link validateBetType}'s `typeSizes`. */
  typeSizes: number[];
}

/**
 * Reads an MTS/advisory `type` object (the MTS and advisory contract, "Type rules": code 0 single with `system_sizes`
 * [1], 1 express with [n], 2 system with the chosen sizes in 2..n). Only a malformed type is refused here: whether it
 * fits the selections (a single of several selections, an express whose size is not its number of selections, system
 * sizes out of range or repeated) is decided by {@link validateBetType} with `typeSizes`, and declined or advised
 * as `bet_type` — the same for a bet reported for the risk decision and one reported for advice.
 *
 * @throws DomainError `validation_error` naming `type.code` (not 0, 1 or 2) or `type.system_sizes` (not an array of
 * integers).
 */
export function readMtsType(type: { code: unknown; system_sizes: unknown }): MtsType {
  const betType = betTypeFromMtsCode(type.code);
  const sizes = type.system_sizes;
  if (!Array.isArray(sizes) || sizes.some((k) => !Number.isInteger(k))) {
    throw validationError('type.system_sizes', 'must be an array of integers');
  }
  const typeSizes = [...(sizes as number[])];
  return { betType, systemSizes: betType === 'system' ? [...typeSizes] : [], typeSizes };
}
