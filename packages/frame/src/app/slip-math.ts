import { combinationCount } from '@bookie/core/bet-types';
import {
  add,
  div,
  format,
  fromInteger,
  mul,
  ONE,
  parseDecimal,
  product,
  type Rational,
  sub,
  sum,
  ZERO,
} from '@bookie/core/decimal';

/** What the bet slip shows before placing; every amount an exact decimal string (6 decimals), for display only. */
export interface SlipFigures {
  /** Express: the product of the odds. */
  totalOdds?: Rational;
  /** The payout if every selection wins (single: of all the singles; system: every combination wins). */
  payout?: string;
  /** System: the number of combinations and the stake on each. */
  combinations?: number;
  perCombination?: string;
  /** Freebet: what the player wins (the freebet's stake is not paid back). */
  freebetWin?: string;
}

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

/**
 * The slip's figures from the stake typed (a decimal string, `,` accepted) and the odds of its selections: express
 * total odds and payout, singles' payout (the stake is per single), a system's combinations, stake per combination
 * (the stake shared evenly) and maximum payout (Σ over the chosen sizes k of the products of every k odds, times the
 * stake per combination). Exact (rational); undefined parts where the stake or odds cannot be read.
 */
export function slipFigures(
  type: 'single' | 'express' | 'system',
  stakeText: string,
  odds: readonly string[],
  sizes: readonly number[],
  freebet = false,
): SlipFigures {
  const n = odds.length;
  const out: SlipFigures = {};
  let values: Rational[];
  try {
    values = odds.map((o) => exact(o, 'odds'));
  } catch {
    return out;
  }
  if (type === 'express' && n > 1) out.totalOdds = product(values);
  const valid = sizes.filter((k) => k >= 2 && k < n);
  if (type === 'system' && valid.length > 0) out.combinations = combinationCount(n, valid);
  let stake: Rational;
  try {
    const t = stakeText.trim().replace(',', '.');
    if (t === '') return out;
    stake = parseDecimal(t, { field: 'stake', maxDecimals: 6 });
  } catch {
    return out;
  }
  let payout: Rational | undefined;
  if (type === 'single' && n > 0) payout = sum(values.map((v) => mul(stake, v)));
  else if (type === 'express' && out.totalOdds) payout = mul(stake, out.totalOdds);
  else if (type === 'system' && out.combinations) {
    const per = div(stake, fromInteger(out.combinations));
    out.perCombination = format(per, 6);
    // e[k]: the sum of the products of every k of the odds (elementary symmetric polynomials)
    const maxK = Math.max(...valid);
    const e: Rational[] = [ONE, ...Array.from({ length: maxK }, () => ZERO)];
    for (const f of values) for (let j = maxK; j >= 1; j--) e[j] = add(e[j]!, mul(e[j - 1]!, f));
    payout = mul(per, sum(valid.map((k) => e[k]!)));
  }
  if (payout) {
    out.payout = format(payout, 6);
    if (freebet) out.freebetWin = format(sub(payout, stake), 6);
  }
  return out;
}
