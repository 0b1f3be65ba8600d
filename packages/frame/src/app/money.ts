import { compare, format, mul, parseDecimal, rational, roundDown, sub } from '@bookie/core/decimal';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A money amount as the player reads it, written from the server's decimal string without any arithmetic: trailing
 * zeros dropped down to two decimals, every other digit kept (`"13.458000"` → `"13.458"`, `"10.000000"` → `"10.00"`,
 * `"0.5"` → `"0.50"`). Anything that is not a plain decimal string is shown as it came.
 */
export function money(v: string): string {
  const m = DECIMAL.exec(v.trim());
  if (!m) return v;
  const [, sign, int, frac = ''] = m;
  let f = frac.replace(/0+$/, '');
  if (f.length < 2) f = f.padEnd(2, '0');
  return `${sign}${int}.${f}`;
}

const exact = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 12 });

/**
 * The part of the remaining stake a partial cash-out takes for a slider at `percent` (1–99): `remaining × percent /
 * 100` rounded down to cents, as a decimal string with 2 decimals; undefined when that is nothing or all of it (a
 * partial cash-out takes some but not all of the stake).
 */
export function partOfStake(remaining: string, percent: number): string | undefined {
  if (!Number.isInteger(percent) || percent < 1 || percent > 99) return undefined;
  let r: ReturnType<typeof exact>;
  try {
    r = exact(remaining);
  } catch {
    return undefined;
  }
  const part = roundDown(mul(r, rational(BigInt(percent), 100n)), 2);
  if (part.num <= 0n || compare(part, r) >= 0) return undefined;
  return format(part, 2);
}

/** True when two decimal strings are the same amount (`"4.00"` and `"4.000000"`). */
export function sameAmount(a: string, b: string): boolean {
  try {
    return compare(exact(a), exact(b)) === 0;
  } catch {
    return false;
  }
}

/**
 * The stake still in play after cash-outs: `stake − cashed_out` as a decimal string with 6 decimals (the bet view's
 * amounts); the stake as it came when either is not a plain decimal string.
 */
export function stakeInPlay(stake: string, cashedOut: string): string {
  try {
    return format(sub(exact(stake), exact(cashedOut)), 6);
  } catch {
    return stake;
  }
}
