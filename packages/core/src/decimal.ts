/**
 * Exact decimal arithmetic on bigint rationals (the decimal strings rule, the exact, then rounded once rule).
 *
 * Decimal strings are parsed without ever going through JS `number`: the digits become a bigint numerator over a
 * power-of-ten denominator. Arithmetic is exact (`div` included); rounding happens only when a value is written
 * ({@link format}) or explicitly ({@link roundHalfUp}). See docs/adr/0003-core-arithmetic.md.
 *
 * Every value is kept normalized, but cheaply (docs/adr/0053-decimal-normalization.md): operations skip the gcd
 * where the result is known to be normalized (an integer operand, a negation, a value already rounded, parsed digits
 * coprime to 10), and the gcd itself runs on 32-bit integers once its divisor is below 2^31.
 *
 * @packageDocumentation
 */
import { validationError } from './errors.js';

/**
 * An exact rational number `num / den`. Always normalized: `den > 0` and `gcd(|num|, den) = 1`, so two equal
 * values have equal fields (a decimal's denominator is therefore 2^i·5^j, not always its 10^k scale: `"1.50"` is
 * `3/2`). Build it with {@link rational}, the parsers or the operations; never construct the object by hand: the
 * operations rely on their operands being normalized. Values are frozen.
 */
export interface Rational {
  /** Numerator (carries the sign). */
  readonly num: bigint;
  /** Denominator, always positive. */
  readonly den: bigint;
}

/** The rational 0. */
export const ZERO: Rational = Object.freeze({ num: 0n, den: 1n });
/** The rational 1. */
export const ONE: Rational = Object.freeze({ num: 1n, den: 1n });

/** 2^31 − 1 as a bigint: below it, Euclid's algorithm runs on 32-bit integers. */
const INT32 = 0x7fffffffn;

/** gcd of two non-negative integers below 2^31 (`number`s: 32-bit remainders are exact and cheap). */
function gcdInt32(x: number, y: number): number {
  let a = x | 0;
  let b = y | 0;
  while (b !== 0) {
    const t = (a % b) | 0;
    a = b;
    b = t;
  }
  return a;
}

/**
 * gcd(|a|, b) for `b > 0`, Euclid's algorithm: bigint remainders while the divisor is at least 2^31, then 32-bit
 * integer remainders, which allocate nothing. Decimals' denominators (2^i·5^j: up to 10^6 for money and bet odds) are
 * below 2^31 from the start, so most gcds take at most one bigint remainder.
 */
function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y > INT32) {
    const t = x % y;
    x = y;
    y = t;
  }
  if (y === 0n) return x;
  if (x > INT32) x %= y;
  const g = gcdInt32(Number(y), Number(x));
  return g === 1 ? 1n : BigInt(g);
}

/** The normalized rational `num / den` for a positive `den`: both divided by their gcd. */
function reduce(num: bigint, den: bigint): Rational {
  if (num === 0n) return ZERO;
  if (den === 1n) return Object.freeze({ num, den });
  const g = gcd(num, den);
  if (g === 1n) return Object.freeze({ num, den });
  return Object.freeze({ num: num / g, den: den / g });
}

/**
 * Builds the normalized rational `num / den`.
 *
 * @param num - numerator.
 * @param den - denominator, not zero (default 1).
 * @throws RangeError when `den` is 0 (a programming error, not bad input).
 */
export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('rational: zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  return reduce(num, den);
}

/** Powers of ten by exponent, computed once (scales of decimals: 10^0 … 10^40). */
const POW10: readonly bigint[] = Array.from({ length: 41 }, (_, i) => 10n ** BigInt(i));

/** 10^n for a non-negative integer `n`. */
function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/**
 * The rational of a safe integer or bigint (e.g. a count of combinations).
 *
 * @throws RangeError when `n` is a `number` that is not a safe integer.
 */
export function fromInteger(n: number | bigint): Rational {
  if (typeof n === 'number' && !Number.isSafeInteger(n))
    throw new RangeError(`fromInteger: ${n} is not a safe integer`);
  return rational(BigInt(n));
}

/** Options of {@link parseDecimal}. */
export interface ParseDecimalOptions {
  /** Path of the field being parsed, named in errors (e.g. `"legs[1].odds"`). */
  field: string;
  /** Most decimals allowed after the point (default 12). */
  maxDecimals?: number;
  /** Whether a leading `-` is allowed (default false). */
  allowNegative?: boolean;
  /** Whether the value 0 is allowed (default true). */
  allowZero?: boolean;
  /** Most digits allowed before the point (default 18), a guard against absurdly large inputs. */
  maxIntegerDigits?: number;
}

const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string exactly (the decimal strings rule, the one rule of every API; its JSON Schema form is
 * `decimalPattern` of `@bookie/contracts`). Accepted: optional `-` (only with `allowNegative`), ASCII digits without
 * leading zeros, optionally a point followed by at least one digit, e.g. `"10"`, `"1.850000"`, `"0.5"`. Rejected:
 * anything not a string (JSON numbers included), empty strings, spaces, a leading `+`, exponents (`"1e3"`),
 * `NaN`/`Infinity`, leading zeros (`"007.5"`, `"01"`), `".5"`/`"5."`, more than `maxIntegerDigits` digits before the
 * point, more than `maxDecimals` decimals, a negative value unless allowed, zero unless allowed.
 *
 * @param input - the raw value (usually a string from JSON).
 * @param options - field name and limits, see {@link ParseDecimalOptions}.
 * @returns the exact value.
 * @throws DomainError `validation_error` with `details.field = options.field`; the message starts with the field.
 */
export function parseDecimal(input: unknown, options: ParseDecimalOptions): Rational {
  const { field } = options;
  const maxDecimals = options.maxDecimals ?? 12;
  const maxIntegerDigits = options.maxIntegerDigits ?? 18;
  if (typeof input !== 'string') {
    throw validationError(field, `must be a decimal string, got ${input === null ? 'null' : typeof input}`);
  }
  const m = DECIMAL_RE.exec(input);
  // the pattern matched: none of the diagnostics below applies (they only name what is wrong with a rejected value)
  if (!m) {
    if (input.length === 0) throw validationError(field, 'must not be empty');
    if (/\s/.test(input)) throw validationError(field, 'must not contain spaces');
    if (/^[+-]?(nan|inf|infinity)$/i.test(input))
      throw validationError(field, `must be a finite number, got "${input}"`);
    if (/[eE]/.test(input)) throw validationError(field, `must not use an exponent, got "${input}"`);
    if (input.startsWith('+')) throw validationError(field, 'must not have a leading "+"');
    throw validationError(field, `must be a decimal string like "10.50", got "${truncate(input)}"`);
  }
  const [, sign = '', intPart = '', fracPart = ''] = m;
  if (sign === '-' && !options.allowNegative) throw validationError(field, 'must not be negative');
  if (intPart.length > 1 && intPart.startsWith('0')) {
    throw validationError(field, `must not have leading zeros, got "${truncate(input)}"`);
  }
  if (intPart.length > maxIntegerDigits) {
    throw validationError(field, `must have at most ${maxIntegerDigits} digits before the point`);
  }
  if (fracPart.length > maxDecimals) {
    throw validationError(field, `must have at most ${maxDecimals} decimals, got ${fracPart.length}`, {
      maxDecimals,
    });
  }
  // trailing zeros of the fraction change nothing but the work of normalizing
  let end = fracPart.length;
  while (end > 0 && fracPart.charCodeAt(end - 1) === 48) end--;
  const digits = BigInt(intPart + fracPart.slice(0, end));
  const num = sign === '-' ? -digits : digits;
  // the last decimal kept is not 0; when it is 1, 3, 7 or 9 the digits share no factor with 10^end: already normalized
  const last = end === 0 ? 0 : fracPart.charCodeAt(end - 1) - 48;
  const value =
    end === 0
      ? reduce(num, 1n)
      : last % 2 === 1 && last !== 5
        ? Object.freeze({ num, den: pow10(end) })
        : reduce(num, pow10(end));
  if (value.num === 0n && options.allowZero === false) throw validationError(field, 'must not be zero');
  return value;
}

function truncate(s: string): string {
  return s.length > 32 ? `${s.slice(0, 32)}…` : s;
}

/** Options shared by the wire parsers below. */
export interface WireParseOptions {
  /** Whether 0 is allowed (default true for money, false for stakes). */
  allowZero?: boolean;
}

/**
 * Parses a money amount (the decimal strings rule): a non-negative decimal string with at most 6 decimals.
 *
 * @param input - raw value, e.g. `"10.000000"` or `"10"`.
 * @param field - field path named in errors.
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseMoney(input: unknown, field: string, options: WireParseOptions = {}): Rational {
  return parseDecimal(input, {
    field,
    maxDecimals: 6,
    allowNegative: false,
    allowZero: options.allowZero ?? true,
  });
}

/**
 * Parses a stake: a money amount (6 decimals at most, the decimal strings rule) that must be positive.
 *
 * @throws DomainError `validation_error` naming `field` (e.g. `"stake: must not be negative"`).
 */
export function parseStake(input: unknown, field = 'stake'): Rational {
  return parseDecimal(input, { field, maxDecimals: 6, allowNegative: false, allowZero: false });
}

/** Options of {@link parseOdds}. */
export interface ParseOddsOptions {
  /** Most decimals allowed (default 6: bet odds on the wire, the decimal strings rule; feed odd values use 12). */
  maxDecimals?: number;
  /** Whether odds of exactly 1 are allowed (default false): only where a settled leg is described, e.g. a refunded
   * leg in the calculator (vector E8). Odds anyone offers or bets at are above 1. */
  allowOne?: boolean;
}

/**
 * Parses decimal odds (the callback contract, "Bet odd" odd_ratio; the decimal strings rule): a decimal string above 1
 * — every odds a bet is placed, reported or advised at and every odd value trading sets. Zero, odds below 1 and
 * odds of exactly 1 (unless `allowOne`) are rejected.
 *
 * @param input - raw value, e.g. `"1.850000"`.
 * @param field - field path named in errors, e.g. `"legs[0].odds"`.
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseOdds(input: unknown, field: string, options: ParseOddsOptions = {}): Rational {
  const value = parseDecimal(input, { field, maxDecimals: options.maxDecimals ?? 6, allowNegative: false });
  if (value.num === 0n) throw validationError(field, 'odds must not be zero');
  if (options.allowOne ? compare(value, ONE) < 0 : compare(value, ONE) <= 0) {
    throw validationError(
      field,
      `odds must be ${options.allowOne ? 'at least 1' : 'above 1'}, got "${truncate(String(input))}"`,
    );
  }
  return value;
}

/**
 * Parses a feed odd value (the feed contract, "Odd": decimal string with 12 decimals): odds above 1 with at most 12 decimals.
 *
 * @throws DomainError `validation_error` naming `field`.
 */
export function parseFeedOddValue(input: unknown, field: string): Rational {
  return parseOdds(input, field, { maxDecimals: 12 });
}

/**
 * `n1/d1 + n2/d2` for normalized operands (`d1, d2 > 0`, `n2 ≠ 0`). Equal denominators add numerators (one gcd, none for
 * integers); an integer operand needs no gcd at all: gcd(n1·d2 + n2, d2) = gcd(n2, d2) = 1.
 */
function plus(n1: bigint, d1: bigint, n2: bigint, d2: bigint): Rational {
  if (d1 === d2) return d1 === 1n ? Object.freeze({ num: n1 + n2, den: 1n }) : reduce(n1 + n2, d1);
  if (d1 === 1n) return Object.freeze({ num: n1 * d2 + n2, den: d2 });
  if (d2 === 1n) return Object.freeze({ num: n1 + n2 * d1, den: d1 });
  return reduce(n1 * d2 + n2 * d1, d1 * d2);
}

/** `a + b`, exact. */
export function add(a: Rational, b: Rational): Rational {
  if (b.num === 0n) return a;
  if (a.num === 0n) return b;
  return plus(a.num, a.den, b.num, b.den);
}

/** `a − b`, exact. */
export function sub(a: Rational, b: Rational): Rational {
  if (b.num === 0n) return a;
  return plus(a.num, a.den, -b.num, b.den);
}

/** 2^53 − 1 as a bigint: up to it, a product's gcd is cheaper than the two gcds of its factors. */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `n1·n2 / (d1·d2)` for normalized `n1/d1` and `n2/d2` (`d1, d2 > 0`). A small denominator is reduced with one gcd
 * of the product; a large one (products of 12-decimal odds) with the cross gcds gcd(n1, d2) and gcd(n2, d1), which
 * cancel everything the product could share on smaller numbers, so the result is normalized either way.
 */
function times(n1: bigint, d1: bigint, n2: bigint, d2: bigint): Rational {
  if (n1 === 0n || n2 === 0n) return ZERO;
  const den = d1 * d2;
  if (den <= SAFE) return reduce(n1 * n2, den);
  const g1 = d2 === 1n ? 1n : gcd(n1, d2);
  if (g1 !== 1n) {
    n1 /= g1;
    d2 /= g1;
  }
  const g2 = d1 === 1n ? 1n : gcd(n2, d1);
  if (g2 !== 1n) {
    n2 /= g2;
    d1 /= g2;
  }
  return Object.freeze({ num: n1 * n2, den: d1 * d2 });
}

/** `a × b`, exact. */
export function mul(a: Rational, b: Rational): Rational {
  return times(a.num, a.den, b.num, b.den);
}

/**
 * `a ÷ b`, exact.
 *
 * @throws RangeError when `b` is 0 (a programming error; validate inputs first).
 */
export function div(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('div: division by zero');
  return b.num < 0n ? times(a.num, a.den, -b.den, -b.num) : times(a.num, a.den, b.den, b.num);
}

/** `−a`. */
export function neg(a: Rational): Rational {
  return a.num === 0n ? a : Object.freeze({ num: -a.num, den: a.den });
}

/** `|a|`. */
export function abs(a: Rational): Rational {
  return a.num < 0n ? neg(a) : a;
}

/** −1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  if (a.den === b.den) return a.num < b.num ? -1 : a.num > b.num ? 1 : 0;
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** `a = b`. */
export function eq(a: Rational, b: Rational): boolean {
  return a.num === b.num && a.den === b.den;
}

/** True when `a` is 0. */
export function isZero(a: Rational): boolean {
  return a.num === 0n;
}

/** The smaller of `a` and `b` (`a` when equal). */
export function min(a: Rational, b: Rational): Rational {
  return compare(b, a) < 0 ? b : a;
}

/** The larger of `a` and `b` (`a` when equal). */
export function max(a: Rational, b: Rational): Rational {
  return compare(b, a) > 0 ? b : a;
}

/** The sum of `values` (0 for none). */
export function sum(values: Iterable<Rational>): Rational {
  let acc = ZERO;
  for (const v of values) acc = add(acc, v);
  return acc;
}

/** The product of `values` (1 for none). */
export function product(values: Iterable<Rational>): Rational {
  let acc = ONE;
  for (const v of values) acc = mul(acc, v);
  return acc;
}

function checkDecimals(n: number): bigint {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`decimals must be a non-negative integer, got ${n}`);
  return pow10(n);
}

/**
 * Rounds `x` to `n` decimals, half-up in the sense of half away from zero (2.5 → 3, −2.5 → −3) (the exact, then rounded once rule).
 *
 * @param n - decimals, a non-negative integer.
 * @returns an exact rational with at most `n` decimals.
 */
export function roundHalfUp(x: Rational, n: number): Rational {
  const scale = checkDecimals(n);
  if (scale % x.den === 0n) return x; // already at most n decimals
  const a = x.num < 0n ? -x.num : x.num;
  const q = (2n * a * scale + x.den) / (2n * x.den);
  return reduce(x.num < 0n ? -q : q, scale);
}

/**
 * Rounds `x` to `n` decimals toward zero (truncation). Used to keep a rounded amount under a cap
 * (docs/adr/0003-core-arithmetic.md).
 */
export function roundDown(x: Rational, n: number): Rational {
  const scale = checkDecimals(n);
  if (scale % x.den === 0n) return x; // already at most n decimals
  return reduce((x.num * scale) / x.den, scale);
}

/**
 * Writes `x` as a decimal string with exactly `decimals` decimals, rounding half-up (away from zero) when `x` has
 * more (the decimal strings rule, the exact, then rounded once rule). No exponent, no `+`, never `"-0…"`.
 *
 * @example `format(rational(37n, 2n), 6)` → `"18.500000"`
 */
export function format(x: Rational, decimals: number): string {
  const scale = checkDecimals(decimals);
  // x × 10^decimals rounded half away from zero: the numerator of roundHalfUp(x, decimals) over 10^decimals
  const negative = x.num < 0n;
  const a = negative ? -x.num : x.num;
  const q = x.den === 1n ? a * scale : (2n * a * scale + x.den) / (2n * x.den);
  const digits = q.toString().padStart(decimals + 1, '0');
  const intPart = digits.slice(0, digits.length - decimals);
  const fracPart = digits.slice(digits.length - decimals);
  return `${negative && q !== 0n ? '-' : ''}${intPart}${decimals > 0 ? `.${fracPart}` : ''}`;
}

/** Writes a money amount with 6 decimals (the decimal strings rule), rounding half-up beyond that. */
export function formatMoney(x: Rational): string {
  return format(x, 6);
}

/** Writes bet odds with 6 decimals (the decimal strings rule), rounding half-up beyond that. */
export function formatOdds(x: Rational): string {
  return format(x, 6);
}

/** Writes a feed odd value with 12 decimals (the feed contract, "Odd", the decimal strings rule), rounding half-up beyond that. */
export function formatFeedOddValue(x: Rational): string {
  return format(x, 12);
}

/** True when `x` has at most `n` decimals, i.e. `format(x, n)` is exact. */
export function hasAtMostDecimals(x: Rational, n: number): boolean {
  return checkDecimals(n) % x.den === 0n;
}
