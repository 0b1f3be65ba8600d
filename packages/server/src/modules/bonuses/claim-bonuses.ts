import {
  formatFeedOddValue,
  mul,
  parseDecimal,
  type Rational,
  type Restriction,
  restriction,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { applyInsurance, findInsurance, isBonusId, useBoost } from './bonuses.repo.js';
import { insuranceView } from './views.js';

/** The bet being accepted. */
export interface ClaimBonusesInput {
  betId: string;
  whiteLabelId: string;
  playerId: string;
  insuranceId: string | null;
  /** The multiplier the bet reserved at creation (its `boost_multiplier`), if any. */
  boostMultiplier: string | null;
  /** The accepted total odds before any boost. */
  baseOdds: Rational;
  now: Date;
}

/** Outcome of {@link claimBonuses}: restrictions that turn the accept into a decline, and the total odds to store. */
export interface BonusClaim {
  restrictions: Restriction[];
  /** The accepted total odds with the boost (D19), 12 decimals; the base odds when there is no boost. */
  totalOdds: string;
}

/**
 * Placement hook, in the transaction that accepts the bet, before it moves (docs/adr/0009-bonuses.md):
 * - the insurance: available → applied to this bet by one atomic conditional update (spec 01 "Bet insurance":
 *   available → applied when the bet is accepted). When another bet took it meanwhile, the bet is declined with
 *   `insurance_status` instead;
 * - the boost: the unit reserved at creation becomes used ("consumed on accept"), and the total odds are the accepted
 *   base odds × the multiplier.
 */
export async function claimBonuses(tx: Executor, input: ClaimBonusesInput): Promise<BonusClaim> {
  const restrictions: Restriction[] = [];
  const id = input.insuranceId;
  if (id !== null) {
    const who = {
      whiteLabelId: input.whiteLabelId,
      playerId: input.playerId,
      betId: input.betId,
      now: input.now,
    };
    if (!isBonusId(id) || !(await applyInsurance(tx, { id, ...who }))) {
      const row = isBonusId(id) ? await findInsurance(tx, input.whiteLabelId, id) : undefined;
      const status =
        row && row.player_id === input.playerId
          ? insuranceView(row, input.now.getTime()).status
          : 'not_found';
      restrictions.push(restriction('insurance_status', { insurance_id: id, status }));
    }
  }
  let total = input.baseOdds;
  if (input.boostMultiplier !== null) {
    total = mul(total, parseDecimal(input.boostMultiplier, { field: 'boost_multiplier', maxDecimals: 6 }));
    if (restrictions.length === 0) await useBoost(tx, input.betId, input.now);
  }
  return { restrictions, totalOdds: formatFeedOddValue(total) };
}
