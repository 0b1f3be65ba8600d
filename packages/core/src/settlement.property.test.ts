/** Property tests of settlement, with fast-check. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combinationCount, systemCombinations } from './bet-types.js';
import { add, compare, div, fromInteger, type Rational, rational, ZERO } from './decimal.js';
import {
  type Boost,
  EXPRESS_CAP_EUR,
  exactPayout,
  roundPayout,
  type SettleBetInput,
  type SettlementLeg,
  settleBet,
} from './settlement.js';
import type { OddStatus } from './statuses.js';

const arbOdds = fc.bigInt({ min: 1000n, max: 30_000n }).map((n) => rational(n, 1000n)); // 1.000 … 30.000
const arbStake = fc.bigInt({ min: 1n, max: 100_000_000n }).map((n) => rational(n, 1000n)); // 0.001 … 100,000
const arbStatus = fc.integer({ min: 1, max: 7 }) as fc.Arbitrary<OddStatus>;
const arbLeg: fc.Arbitrary<SettlementLeg> = fc
  .tuple(arbOdds, arbStatus, fc.option(fc.bigInt({ min: 1n, max: 100n }), { nil: undefined }))
  .map(([odds, status, h]) =>
    status === 1 && h !== undefined ? { odds, status, deadHeat: rational(h, 100n) } : { odds, status },
  );
const arbBoost: fc.Arbitrary<Boost | undefined> = fc.option(
  fc.bigInt({ min: 100n, max: 300n }).map((m) => ({ multiplier: rational(m, 100n) })),
  { nil: undefined },
);
const arbCap = fc.constantFrom<Rational>(EXPRESS_CAP_EUR, rational(1000n), rational(550001n, 10n));

/** A bet of any type with 1–6 legs (system sizes chosen among 2..n). */
const arbBet: fc.Arbitrary<SettleBetInput> = fc
  .tuple(fc.array(arbLeg, { minLength: 1, maxLength: 6 }), arbStake, arbBoost, arbCap, fc.nat())
  .chain(([legs, stake, boost, expressCap, pick]) => {
    const n = legs.length;
    const base = { stake, legs, expressCap, ...(boost ? { boost } : {}) };
    if (n === 1) return fc.constant<SettleBetInput>({ ...base, betType: 'single' });
    const possible = Array.from({ length: n - 1 }, (_, i) => i + 2);
    return fc.oneof(
      fc.constant<SettleBetInput>({ ...base, betType: 'express' }),
      fc.subarray(possible, { minLength: 1 }).map(
        (sizes): SettleBetInput => ({
          ...base,
          betType: 'system',
          systemSizes: pick % 2 ? sizes : [...sizes].reverse(),
        }),
      ),
    );
  });

describe('settlement properties', () => {
  it('the order of legs never changes a payout', () => {
    fc.assert(
      fc.property(
        arbBet.chain((b) =>
          fc.tuple(
            fc.constant(b),
            fc.shuffledSubarray([...b.legs], { minLength: b.legs.length, maxLength: b.legs.length }),
          ),
        ),
        ([b, shuffled]) => {
          expect(settleBet({ ...b, legs: shuffled })).toEqual(settleBet(b));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a bet whose legs are all refunded returns its stake', () => {
    const arbVoid = arbBet.chain((b) =>
      fc
        .array(fc.constantFrom<OddStatus>(5, 6, 7), { minLength: b.legs.length, maxLength: b.legs.length })
        .map((statuses) => ({
          ...b,
          legs: b.legs.map((l, i) => ({ odds: l.odds, status: statuses[i] as OddStatus })),
        })),
    );
    fc.assert(
      fc.property(arbVoid, fc.bigInt({ min: 1n, max: 10n ** 12n }), (b, micro) => {
        const stake = rational(micro, 1_000_000n); // any stake with 6 decimals
        const out = settleBet({ ...b, stake });
        expect(out.payout).toEqual(stake);
        expect(out.settleAmount).toEqual(stake);
        expect(out.settleType).toBe(2);
        expect(out.voided).toBe(true);
      }),
    );
  });

  it('a system whose legs all win pays the sum of its expresses', () => {
    const arbWinningSystem = arbBet
      .filter((b) => b.betType === 'system')
      .map((b) => ({ ...b, legs: b.legs.map((l) => ({ odds: l.odds, status: 1 as OddStatus })) }));
    fc.assert(
      fc.property(arbWinningSystem, (b) => {
        const sizes = b.systemSizes ?? [];
        const perExpress = div(b.stake, fromInteger(combinationCount(b.legs.length, sizes)));
        let total = ZERO;
        for (const combo of systemCombinations(b.legs.length, sizes)) {
          const legs = combo.map((i) => b.legs[i] as SettlementLeg);
          total = add(total, exactPayout({ ...b, betType: 'express', stake: perExpress, legs }).value);
        }
        expect(settleBet(b).payout).toEqual(roundPayout(total));
      }),
      { numRuns: 200 },
    );
  });

  it('any system pays the sum of its expresses (fast path and enumeration agree)', () => {
    fc.assert(
      fc.property(
        arbBet.filter((b) => b.betType === 'system'),
        (b) => {
          const sizes = b.systemSizes ?? [];
          const perExpress = div(b.stake, fromInteger(combinationCount(b.legs.length, sizes)));
          let total = ZERO;
          for (const combo of systemCombinations(b.legs.length, sizes)) {
            const legs = combo.map((i) => b.legs[i] as SettlementLeg);
            total = add(total, exactPayout({ ...b, betType: 'express', stake: perExpress, legs }).value);
          }
          expect(exactPayout(b).value).toEqual(total);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a payout never decreases when one leg’s odds rise', () => {
    fc.assert(
      fc.property(arbBet, fc.nat(), fc.bigInt({ min: 1n, max: 10_000n }), (b, which, raise) => {
        const i = which % b.legs.length;
        const legs = b.legs.map((l, j) =>
          j === i ? { ...l, odds: add(l.odds, rational(raise, 1000n)) } : l,
        );
        const before = settleBet(b).payout;
        const after = settleBet({ ...b, legs }).payout;
        expect(compare(after, before)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });

  it('a payout is never negative and is rounded to 3 decimals', () => {
    fc.assert(
      fc.property(arbBet, (b) => {
        const { payout } = settleBet(b);
        expect(payout.num >= 0n).toBe(true);
        if (!settleBet(b).voided) expect(1000n % payout.den).toBe(0n);
      }),
    );
  });
});
