/**
 * The system bet (the callback contract, "Bet types"; the leg factors rule): a system of n selections with sizes k is
 * every express of k of them (its combinations), for each size; its stake is split evenly over the combinations.
 * Counting and listing the combinations, and the rules of a system's sizes.
 *
 * @packageDocumentation
 */
import type { BetTypeViolation } from './restrictions.js';

/**
 * Most combinations a system may have by default; more is refused (`too_many_combinations`), a guard for settlement
 * cost. The callback contract sets no maximum number of selections, so this is the one bound on a combination bet's size; the
 * server's `SYSTEM_MAX_COMBINATIONS` setting overrides it.
 */
export const MAX_SYSTEM_COMBINATIONS = 100_000;

/**
 * The binomial coefficient C(n, k): how many combinations of k among n selections (0 when k > n or k < 0).
 *
 * @throws RangeError when the result exceeds `Number.MAX_SAFE_INTEGER`.
 */
export function binomial(n: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(k) || k < 0 || n < 0 || k > n) return 0;
  let r = 1n;
  const kk = BigInt(Math.min(k, n - k));
  const nn = BigInt(n);
  for (let i = 1n; i <= kk; i++) r = (r * (nn - kk + i)) / i;
  if (r > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`binomial(${n}, ${k}) is too large`);
  return Number(r);
}

/**
 * The number of combinations N = Σ C(n, k) over the sizes k of a system (the leg factors rule). Trixie [2,3] of 3 → 4,
 * Yankee [2,3,4] of 4 → 11, Canadian [2..5] of 5 → 26, Heinz [2..6] of 6 → 57.
 */
export function combinationCount(n: number, sizes: readonly number[]): number {
  return sizes.reduce((acc, k) => acc + binomial(n, k), 0);
}

/**
 * All combinations of `k` among the indexes `0..n-1`, each an ascending index array, in lexicographic order.
 *
 * @example `combinations(3, 2)` → `[[0,1],[0,2],[1,2]]`
 */
export function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  if (k < 0 || k > n) return out;
  const current: number[] = [];
  const walk = (start: number): void => {
    if (current.length === k) {
      out.push([...current]);
      return;
    }
    for (let i = start; i <= n - (k - current.length); i++) {
      current.push(i);
      walk(i + 1);
      current.pop();
    }
  };
  walk(0);
  return out;
}

/**
 * All combinations (virtual expresses) of a system of `n` selections with `sizes`: for each size in ascending order,
 * its combinations in lexicographic order (the callback contract, "Bet types", the leg factors rule). Length = {@link combinationCount}.
 */
export function systemCombinations(n: number, sizes: readonly number[]): number[][] {
  return [...new Set(sizes)].sort((a, b) => a - b).flatMap((k) => combinations(n, k));
}

/** True when Σ C(n, k) over `sizes` exceeds `max`; exact for any n (counted in bigint, stopping past `max`). */
export function exceedsCombinations(n: number, sizes: readonly number[], max: number): boolean {
  const limit = BigInt(max);
  let total = 0n;
  for (const k of sizes) {
    const kk = BigInt(Math.min(k, n - k));
    const nn = BigInt(n);
    let c = 1n;
    for (let i = 1n; i <= kk; i++) c = (c * (nn - kk + i)) / i;
    total += c;
    if (total > limit) return true;
  }
  return false;
}

/**
 * What is wrong with a system's sizes for `n` selections: none given, a size outside 2..n, a size repeated, more
 * than `max` combinations in all.
 */
export function systemSizeViolations(n: number, sizes: readonly number[], max: number): BetTypeViolation[] {
  const out: BetTypeViolation[] = [];
  if (sizes.length === 0) return ['system_sizes_missing'];
  if (sizes.some((k) => !Number.isInteger(k) || k < 2 || k > n)) out.push('system_size_out_of_range');
  if (new Set(sizes).size !== sizes.length) out.push('system_sizes_not_distinct');
  if (out.length === 0 && exceedsCombinations(n, sizes, max)) out.push('too_many_combinations');
  return out;
}
