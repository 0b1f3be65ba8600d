/**
 * Odds acceptance strategies sent with the player's place request (the callback contract, "Odds acceptance strategy"):
 * 1 unchanged or a slight deviation (a configurable tolerance), 2 only upwards, 3 any change.
 *
 * @packageDocumentation
 */
import { abs, compare, formatOdds, mul, parseDecimal, type Rational, sub, ZERO } from './decimal.js';
import { validationError } from './errors.js';
import { type Restriction, restriction, type SelectionRef } from './restrictions.js';

/** Odds acceptance strategy codes (the callback contract): 1 tolerance, 2 only up, 3 any change. */
export const ODDS_STRATEGY = { TOLERANCE: 1, ONLY_UP: 2, ANY: 3 } as const;
/** An odds acceptance strategy code 1, 2 or 3 (the callback contract, "Odds acceptance strategy"). */
export type OddsStrategy = (typeof ODDS_STRATEGY)[keyof typeof ODDS_STRATEGY];

/**
 * Parses an odds acceptance strategy code.
 *
 * @throws DomainError `validation_error` naming `field` unless the value is 1, 2 or 3.
 */
export function parseOddsStrategy(input: unknown, field = 'odds_strategy'): OddsStrategy {
  if (input === 1 || input === 2 || input === 3) return input;
  throw validationError(field, `must be 1 (tolerance), 2 (only up) or 3 (any change), got ${String(input)}`);
}

/**
 * Parses the strategy-1 tolerance: a relative fraction of the requested odds as a decimal string in [0, 1],
 * e.g. `"0.02"` accepts a move of up to 2 % either way; `"0"` (the default) means the odds must be unchanged.
 * See docs/adr/0003-core-arithmetic.md.
 *
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseOddsTolerance(input: unknown, field = 'odds_tolerance'): Rational {
  const t = parseDecimal(input, { field, maxDecimals: 12, allowNegative: false });
  if (t.num > t.den) throw validationError(field, 'must be a fraction from 0 to 1');
  return t;
}

/** Input of {@link applyOddsStrategy}. */
export interface OddsStrategyInput {
  /** The strategy the player chose (the callback contract). */
  strategy: OddsStrategy;
  /** Odds the player saw and requested. */
  requested: Rational;
  /** Odds currently offered by the platform. */
  current: Rational;
  /** Strategy-1 tolerance as a relative fraction (default 0: unchanged only); see {@link parseOddsTolerance}. */
  tolerance?: Rational;
  /** The selection, for the `selection_value` restriction's context (the MTS and advisory contract's table). */
  selection: SelectionRef;
}

/** Outcome of {@link applyOddsStrategy}: accepted at `odds`, or refused with a `selection_value` restriction. */
export type OddsStrategyResult =
  | { accepted: true; odds: Rational }
  | { accepted: false; restriction: Restriction<'selection_value'> };

/**
 * Applies an odds acceptance strategy (the callback contract, "Odds acceptance strategy"). When the strategy allows, the bet is
 * accepted at the CURRENT odds (the platform's price), which may be lower than requested under strategy 1 or 3.
 * - 1: |current − requested| ≤ tolerance × requested (tolerance 0: current = requested);
 * - 2: current ≥ requested;
 * - 3: always.
 *
 * @returns `{accepted: true, odds}` or `{accepted: false, restriction}` where the restriction is `selection_value`
 * with the selection ids, `value` = current odds and `requested_value` = requested odds (6 decimals).
 */
export function applyOddsStrategy(input: OddsStrategyInput): OddsStrategyResult {
  const { strategy, requested, current } = input;
  let ok: boolean;
  if (strategy === ODDS_STRATEGY.ANY) ok = true;
  else if (strategy === ODDS_STRATEGY.ONLY_UP) ok = compare(current, requested) >= 0;
  else ok = compare(abs(sub(current, requested)), mul(input.tolerance ?? ZERO, requested)) <= 0;
  if (ok) return { accepted: true, odds: current };
  return {
    accepted: false,
    restriction: restriction('selection_value', {
      ...input.selection,
      value: formatOdds(current),
      requested_value: formatOdds(requested),
    }),
  };
}
