import {
  formatFeedOddValue,
  type OutcomeKey,
  parseDecimal,
  type Rational,
  rational,
  ZERO,
} from '@bookie/core';
import { describe, expect, it } from 'vitest';
import { exposureRows } from './record-exposure.js';

const outcome = (n: number): OutcomeKey => ({
  phase: 'prematch',
  sport_event_id: `ev-${n}`,
  market_id: 'm',
  odd_id: `o-${n}`,
});

describe('the leg exposures of an accepted bet', () => {
  it('are those of its odds as stored (12 decimals), whatever decimals the accepted odds have', () => {
    // the odds column keeps 12 decimals: what the exposure is computed on is each value written and read back
    const asStored = (o: Rational) => parseDecimal(formatFeedOddValue(o), { field: 'odds', maxDecimals: 12 });
    const sets: Rational[][] = [
      [rational(37n, 20n), rational(21n, 10n)],
      [rational(4n, 3n), rational(7n, 6n)],
      [rational(1234567890123456789n, 1000000000000000000n), rational(3n, 1n)],
      [rational(15n, 8n), rational(10000000000000001n, 10000000000000000n)],
    ];
    for (const legOdds of sets) {
      const bet = {
        betId: 'b',
        whiteLabelId: 'wl',
        stake: '10.5',
        totalOdds: formatFeedOddValue(legOdds.reduce((a, b) => rational(a.num * b.num, a.den * b.den))),
        legs: legOdds.map((_, i) => ({ outcome: outcome(i), marketTypeId: '1', exposure: ZERO, unit: i })),
        eurRate: rational(11n, 10n),
      };
      expect(exposureRows({ ...bet, legOdds })).toEqual(
        exposureRows({ ...bet, legOdds: legOdds.map(asStored) }),
      );
    }
  });
});
