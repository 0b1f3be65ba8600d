import { add, compare, format, mul, parseDecimal, rational, roundDown, sub } from '@bookie/core/decimal';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

const minorCache = new Map<string, number>();

/** The minor units of an ISO 4217 currency (EUR 2, JPY 0, BHD 3); 2 for a code the runtime does not know. */
export function minorUnits(currency: string): number {
  let d = minorCache.get(currency);
  if (d === undefined) {
    try {
      d =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    minorCache.set(currency, d);
  }
  return d;
}

/**
 * A money amount as the player reads it: the server's exact decimal string shown with the currency's minor units
 * (EUR `"13.458000"` → `"13.46"`, `"10"` → `"10.00"`), rounded half away from zero on the digits themselves (bigint,
 * no float); the amount itself stays exact wherever it is used. Anything that is not a plain decimal string is shown
 * as it came.
 */
export function money(v: string, currency = 'EUR'): string {
  const m = DECIMAL.exec(v.trim());
  if (!m) return v;
  const [, sign, int, frac = ''] = m;
  const d = minorUnits(currency);
  const kept = BigInt(int + frac.padEnd(d, '0').slice(0, d));
  const up = (frac[d] ?? '0') >= '5' ? 1n : 0n;
  const digits = String(kept + up).padStart(d + 1, '0');
  const whole = d === 0 ? digits : `${digits.slice(0, -d)}.${digits.slice(-d)}`;
  return `${sign && /[1-9]/.test(digits) ? '-' : ''}${whole}`;
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

/**
 * A bet after an accepted cash-out order, as the server records it (its `cashed_out_stake` and `cashed_out_refund`
 * grow by the order's amount and refund, exactly; a full one ends it cashed out, status 7), so the screen shows it
 * right until the bets are read again. The bet as it came when an amount is not a plain decimal string.
 */
export function afterCashOut<
  B extends { cashed_out_stake: string; cashed_out_refund: string; status: number; state: string },
>(bet: B, order: { amount: string; refund: string; full: boolean }): B {
  try {
    const moved = {
      ...bet,
      cashed_out_stake: format(add(exact(bet.cashed_out_stake), exact(order.amount)), 6),
      cashed_out_refund: format(add(exact(bet.cashed_out_refund), exact(order.refund)), 6),
    };
    return order.full ? { ...moved, status: 7, state: 'cashed_out' } : moved;
  } catch {
    return bet;
  }
}
