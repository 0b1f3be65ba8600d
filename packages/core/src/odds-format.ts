import { compare, format, ONE, parseDecimal, type Rational, rational, roundHalfUp, sub } from './decimal.js';
import { validationError } from './errors.js';

/**
 * The odds formats a player can choose in the betting frame (the frame rule). Bookie stores and computes with
 * decimal odds only; every other format is a view of the stored decimal, converted exactly.
 */
export const ODDS_FORMATS = ['decimal', 'fractional', 'american', 'hongkong', 'malay', 'indonesian'] as const;

/** One of {@link ODDS_FORMATS}. */
export type OddsFormat = (typeof ODDS_FORMATS)[number];

/** True when `s` names an odds format of the frame rule. */
export function isOddsFormat(s: unknown): s is OddsFormat {
  return typeof s === 'string' && (ODDS_FORMATS as readonly string[]).includes(s);
}

const TWO = rational(2n);
const HUNDRED = rational(100n);

function inv(x: Rational): Rational {
  return rational(x.den, x.num);
}

function plusOne(x: Rational): Rational {
  return rational(x.num + x.den, x.den);
}

function checkDecimalOdds(odds: Rational, field: string): void {
  if (compare(odds, ONE) <= 0) throw validationError(field, 'decimal odds must be above 1');
}

/**
 * The exact value of decimal `odds` in `fmt` (the frame rule), as a rational:
 * - `decimal`: the odds; `fractional` and `hongkong`: odds − 1 (fractional is that value as a reduced fraction);
 * - `american`: (odds − 1)·100 when odds ≥ 2, else −100 / (odds − 1);
 * - `malay`: odds − 1 when odds ≤ 2, else −1 / (odds − 1);
 * - `indonesian`: odds − 1 when odds ≥ 2, else −1 / (odds − 1).
 *
 * @param odds - decimal odds, above 1.
 * @throws DomainError `validation_error` (field `odds`) when odds ≤ 1.
 */
export function toOddsFormat(odds: Rational, fmt: OddsFormat): Rational {
  checkDecimalOdds(odds, 'odds');
  const p = sub(odds, ONE); // the profit per unit staked, > 0
  switch (fmt) {
    case 'decimal':
      return odds;
    case 'fractional':
    case 'hongkong':
      return p;
    case 'american':
      return compare(odds, TWO) >= 0 ? rational(p.num * 100n, p.den) : rational(-HUNDRED.num * p.den, p.num);
    case 'malay':
      return compare(odds, TWO) <= 0 ? p : rational(-p.den, p.num);
    case 'indonesian':
      return compare(odds, TWO) >= 0 ? p : rational(-p.den, p.num);
  }
}

/**
 * The decimal odds of `value` given in `fmt`, exactly: the inverse of {@link toOddsFormat}.
 *
 * @throws DomainError `validation_error` (field `value`) when `value` is not a valid value of that format (american
 *   between −100 and +100 exclusive, malay outside [−1, 1] or 0, indonesian between −1 and 1 exclusive, decimal ≤ 1,
 *   fractional or hongkong ≤ 0).
 */
export function fromOddsFormat(value: Rational, fmt: OddsFormat): Rational {
  const bad = (why: string) => validationError('value', `not ${fmt} odds: ${why}`);
  const sign = compare(value, rational(0n));
  switch (fmt) {
    case 'decimal':
      if (compare(value, ONE) <= 0) throw bad('must be above 1');
      return value;
    case 'fractional':
    case 'hongkong':
      if (sign <= 0) throw bad('must be above 0');
      return plusOne(value);
    case 'american': {
      if (compare(value, HUNDRED) >= 0) return plusOne(rational(value.num, value.den * 100n));
      if (compare(value, rational(-100n)) <= 0) return plusOne(rational(-100n * value.den, value.num));
      throw bad('must be +100 or more, or −100 or less');
    }
    case 'malay':
      if (sign > 0 && compare(value, ONE) <= 0) return plusOne(value);
      if (sign < 0 && compare(value, rational(-1n)) >= 0)
        return plusOne(inv(rational(-value.num, value.den)));
      throw bad('must be in [−1, 0) or (0, 1]');
    case 'indonesian':
      if (compare(value, ONE) >= 0) return plusOne(value);
      if (compare(value, rational(-1n)) <= 0) return plusOne(inv(rational(-value.num, value.den)));
      throw bad('must be 1 or more, or −1 or less');
  }
}

/** Writes a positive rational as a reduced fraction `n/d` (fractional odds: `3/2`, `1/1`, `10/11`). */
export function formatFraction(x: Rational): string {
  return `${x.num}/${x.den}`;
}

/**
 * Parses fractional odds `n/d` (positive integers), e.g. `"5/2"`, into the reduced rational n/d.
 *
 * @throws DomainError `validation_error` naming `field` for anything else.
 */
export function parseFraction(input: unknown, field = 'odds'): Rational {
  if (typeof input !== 'string') throw validationError(field, 'must be a fraction string like "5/2"');
  const m = /^(\d{1,18})\/(\d{1,18})$/.exec(input);
  if (!m) throw validationError(field, `must be a fraction like "5/2", got "${input.slice(0, 32)}"`);
  const n = BigInt(m[1]!);
  const d = BigInt(m[2]!);
  if (n === 0n || d === 0n) throw validationError(field, 'numerator and denominator must be positive');
  return rational(n, d);
}

/**
 * Odds as a player sees them in `fmt` (the frame rule): rounded half-up to 2 decimals, never used in a calculation.
 * American odds carry their sign (`+150`, `-200`); fractional odds are the reduced fraction of the decimal odds
 * rounded to 2 decimals, minus 1 (`2.50` → `3/2`).
 *
 * @param odds - decimal odds, above 1.
 * @throws DomainError `validation_error` when odds ≤ 1.
 */
export function displayOdds(odds: Rational, fmt: OddsFormat): string {
  if (fmt === 'fractional') {
    const shown = roundHalfUp(odds, 2);
    checkDecimalOdds(shown, 'odds');
    return formatFraction(sub(shown, ONE));
  }
  const v = toOddsFormat(odds, fmt);
  const s = format(v, 2);
  return fmt === 'american' && v.num > 0n ? `+${s}` : s;
}

/**
 * Parses a displayed or typed value of `fmt` (a fraction `n/d` for fractional, a decimal string otherwise, with an
 * optional sign for american, malay and indonesian) and returns the decimal odds it means, exactly.
 *
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseOddsIn(input: unknown, fmt: OddsFormat, field = 'odds'): Rational {
  if (fmt === 'fractional') return fromOddsFormat(parseFraction(input, field), fmt);
  const raw = typeof input === 'string' && input.startsWith('+') ? input.slice(1) : input;
  return fromOddsFormat(parseDecimal(raw, { field, allowNegative: true, maxDecimals: 12 }), fmt);
}
