import {
  add,
  betExposure,
  type DecisionLeg,
  formatFeedOddValue,
  formatMoney,
  type OutcomeKey,
  outcomeKey,
  parseDecimal,
  type Rational,
  type Restriction,
  roundHalfUp,
  ZERO,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { deleteBetExposure, insertBetExposure, lockOutcomes, readLockedExposure } from './exposure.repo.js';
import { exposureAmount } from './load-risk-state.js';

/** The risk part of a bet being decided: the one decision again on given exposure, and the currency's EUR rate. */
export interface RiskRecheck {
  whiteLabelId: string;
  /** The outcomes the bet's first decision found (its legs'); the exposure read under the lock is theirs. */
  outcomes: readonly OutcomeKey[];
  /** The decision ({@link decideBet} through placement's validation) on this exposure: restrictions and legs. */
  decide(exposure: ReadonlyMap<string, Rational>): { restrictions: Restriction[]; legs: DecisionLeg[] };
  /** Units of the bet currency per EUR; undefined: the bet's exposure cannot be kept. */
  eurRate: Rational | undefined;
}

/** A bet that passed validation outside the transaction, to decide again on the locked exposure. */
export interface RecheckItem {
  risk: RiskRecheck;
}

/**
 * Decides the bets of a placement batch again inside the accept transaction, on the exposure as it is now (D38):
 * locks every outcome involved (in key order), reads their exposure, then decides each bet in
 * order, adding an accepted bet's legs before deciding the next — so bets decided at the same moment never take
 * more than the limits allow. Returns each bet's restrictions (empty: still acceptable) and legs. A bet whose
 * legs moved to outcomes not read (its sport event went live meanwhile) has those read and is decided again.
 */
export async function recheckLimits(
  tx: Executor,
  items: readonly RecheckItem[],
): Promise<Array<{ restrictions: Restriction[]; legs: DecisionLeg[] }>> {
  if (items.length === 0) return [];
  const byWl = new Map<string, Map<string, Rational>>();
  /** The outcomes whose exposure was read, by white label, as {@link outcomeKey}. */
  const read = new Map<string, Set<string>>();
  /** Each outcome object's key, written once (a bet's legs and its outcomes share their objects). */
  const keys = new Map<OutcomeKey, string>();
  const keyOf = (k: OutcomeKey) => {
    let key = keys.get(k);
    if (key === undefined) {
      key = outcomeKey(k);
      keys.set(k, key);
    }
    return key;
  };
  let locked = false;
  const readInto = async (wl: string, outcomes: readonly OutcomeKey[]) => {
    let exposure = byWl.get(wl);
    let seen = read.get(wl);
    if (exposure === undefined || seen === undefined) {
      exposure = new Map<string, Rational>();
      seen = new Set<string>();
      byWl.set(wl, exposure);
      read.set(wl, seen);
    }
    const missing: OutcomeKey[] = [];
    for (const k of outcomes) {
      const key = keyOf(k);
      if (!seen.has(key)) {
        seen.add(key);
        missing.push(k);
      }
    }
    // the first read takes the lock too (with no outcome to read, it only takes the lock)
    if (missing.length === 0 && locked) return exposure;
    locked = true;
    for (const r of await readLockedExposure(tx, wl, missing))
      exposure.set(outcomeKey(r), exposureAmount(r.amount));
    return exposure;
  };
  const whiteLabels = new Set<string>();
  for (const it of items) whiteLabels.add(it.risk.whiteLabelId);
  // several white labels: every outcome locked first in one ordered acquisition (one white label's read does it)
  if (whiteLabels.size > 1) {
    await lockOutcomes(
      tx,
      items.flatMap((it) => it.risk.outcomes.map((key) => ({ whiteLabelId: it.risk.whiteLabelId, key }))),
    );
  }
  for (const wl of whiteLabels) {
    const outcomes: OutcomeKey[] = [];
    for (const it of items)
      if (it.risk.whiteLabelId === wl) for (const k of it.risk.outcomes) outcomes.push(k);
    await readInto(wl, outcomes);
  }
  const out: Array<{ restrictions: Restriction[]; legs: DecisionLeg[] }> = [];
  for (const it of items) {
    const wl = it.risk.whiteLabelId;
    let exposure = byWl.get(wl) as Map<string, Rational>;
    const seen = read.get(wl) as Set<string>;
    let verdict = it.risk.decide(exposure);
    const unread: OutcomeKey[] = [];
    for (const l of verdict.legs) if (!seen.has(keyOf(l.outcome))) unread.push(l.outcome);
    if (unread.length > 0) {
      exposure = await readInto(wl, unread);
      verdict = it.risk.decide(exposure);
    }
    if (verdict.restrictions.length === 0) {
      for (const leg of verdict.legs) {
        const k = keyOf(leg.outcome);
        exposure.set(k, add(exposure.get(k) ?? ZERO, leg.exposure));
      }
    }
    out.push(verdict);
  }
  return out;
}

/** A bet about to move to Accept, with the values that will be stored (stake, total odds, each leg's odds). */
export interface AcceptedExposure {
  betId: string;
  whiteLabelId: string;
  stake: string;
  /** The total odds as stored (boost included), decimal string. */
  totalOdds: string;
  /** Each selection's accepted odds (plain, builders' combined, foreign), in bet order. */
  legOdds: readonly Rational[];
  legs: readonly DecisionLeg[];
  eurRate: Rational;
  /**
   * The stake and the total odds as exact values, when the caller holds them: they must be the values of `stake`
   * and `totalOdds` (e.g. `roundHalfUp(x, 12)` of a total odds written with 12 decimals), which are then not parsed.
   */
  values?: { stake: Rational; totalOdds: Rational };
}

/** The leg exposures of a bet from its stored values (D37): what the accept writes and what recompute checks. */
export function exposureRows(a: AcceptedExposure) {
  const dec = (s: string, field: string) => parseDecimal(s, { field, maxDecimals: 12 });
  // each leg's odds as stored (12 decimals): the value itself when it has no more, no text round trip
  const legOdds = a.legOdds.map((o) => roundHalfUp(o, 12));
  const parts = betExposure({
    stake: a.values?.stake ?? dec(a.stake, 'stake'),
    totalOdds: a.values?.totalOdds ?? dec(a.totalOdds, 'total_odds'),
    legOdds,
    eurRate: a.eurRate,
  });
  const eurRate = formatFeedOddValue(a.eurRate);
  // an inner leg of a builder bears its builder's whole part (D61): its unit is the builder
  return a.legs.map((leg, idx) => ({
    bet_id: a.betId,
    idx,
    white_label_id: a.whiteLabelId,
    phase: leg.outcome.phase,
    sport_event_id: leg.outcome.sport_event_id,
    market_id: leg.outcome.market_id,
    odd_id: leg.outcome.odd_id,
    market_type_id: leg.marketTypeId,
    amount: formatMoney(parts[leg.unit] ?? ZERO),
    eur_rate: eurRate,
  }));
}

/**
 * Writes the leg exposures of bets about to be accepted, in the accept transaction before their state changes or,
 * for a bet created accepted (a reported one), before its insert: the bet's trigger — on the update, or on the insert
 * — then adds them to the outcomes' exposure.
 */
export async function writeAcceptedExposure(tx: Executor, items: readonly AcceptedExposure[]): Promise<void> {
  await insertBetExposure(tx, items.flatMap(exposureRows));
}

/** Removes the leg exposures of bets that another path decided first (they never counted). */
export function dropExposure(tx: Executor, betIds: readonly string[]): Promise<void> {
  return deleteBetExposure(tx, betIds);
}
