import { betExposure, formatMoney, parseDecimal, type Rational } from '@bookie/core';

const dec = (s: string, field: string) => parseDecimal(s, { field, maxDecimals: 12 });

/**
 * The selections of a bet from its stored legs in idx order (D61): every leg is a selection of its own, except the
 * inner legs of one builder (same `builders` index), which are one selection at the builder's combined odds (each
 * such leg shows those odds). Selections are numbered in order of first appearance — plain, builders, foreign, the
 * order the decision apportioned them in. Returns each selection's odds and each leg's selection.
 */
export function legUnits(
  legOdds: readonly string[],
  builders: readonly (number | null)[],
): { unitOdds: Rational[]; unitOfLeg: number[] } {
  const unitOdds: Rational[] = [];
  const byBuilder = new Map<number, number>();
  const unitOfLeg = legOdds.map((o, i) => {
    const b = builders[i] ?? null;
    const known = b === null ? undefined : byBuilder.get(b);
    if (known !== undefined) return known;
    unitOdds.push(dec(o, 'odds'));
    if (b !== null) byBuilder.set(b, unitOdds.length - 1);
    return unitOdds.length - 1;
  });
  return { unitOdds, unitOfLeg };
}

/**
 * Each stored leg's exposure (EUR, 6 decimals, in idx order): core's apportioning of the bet over its selections,
 * an inner leg of a builder bearing its builder's whole part (D61).
 */
export function legExposures(input: {
  stake: Rational;
  totalOdds: Rational;
  legOdds: readonly string[];
  builders: readonly (number | null)[];
  eurRate: Rational;
}): string[] {
  const { unitOdds, unitOfLeg } = legUnits(input.legOdds, input.builders);
  const parts = betExposure({
    stake: input.stake,
    totalOdds: input.totalOdds,
    legOdds: unitOdds,
    eurRate: input.eurRate,
  }).map(formatMoney);
  return unitOfLeg.map((u) => parts[u] as string);
}
