import { parseDecimal, type Rational } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { legExposures, lockBetOutcomes, readExposureBasis, writeLegExposure } from '../risk/index.js';

const dec = (s: string, field: string) => parseDecimal(s, { field, maxDecimals: 12 });

/**
 * Gives a bet the leg exposures of the stake it still has in play after a cash-out order or its cancel: core's
 * apportioning of that stake, exactly what the exposure recompute finds for it (never a rounding of rounded parts),
 * moving the outcomes' exposure by the difference when the bet is open, under the locks of its outcomes. A bet kept without exposure is left alone.
 */
export async function rewriteExposure(
  tx: Executor,
  betId: string,
  stakeInPlay: Rational,
  open: boolean,
): Promise<void> {
  const basis = await readExposureBasis(tx, betId);
  if (!basis) return;
  const parts = legExposures({
    stake: stakeInPlay,
    totalOdds: dec(basis.totalOdds, 'total_odds'),
    legOdds: basis.legOdds,
    builders: basis.builders,
    eurRate: dec(basis.eurRate, 'eur_rate'),
  });
  await lockBetOutcomes(tx, [betId]);
  await writeLegExposure(tx, betId, parts, open);
}
