import type { DecisionLeg, Restriction } from '@bookie/core';
import { GroupCommit } from '@bookie/storage';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import {
  insertReportedBets,
  newBetSportEvents,
  type PartnerBetSource,
  type ReportedBetRow,
  recordBetTimes,
  toPartnerBet,
} from '../bets/index.js';
import { type RiskRecheck, recheckLimits, writeAcceptedExposure } from '../risk/index.js';
import { insertReports } from './mts.repo.js';

/** A reported bet decided outside the transaction, to record (and, when it passed, to decide again on exposure). */
export interface ReportWrite {
  /** The bet as it will be stored; its state and restrictions are set here from the decision. */
  bet: Omit<ReportedBetRow, 'state' | 'restrictions'>;
  /** The restrictions of the decision outside the transaction (empty: it passed). */
  restrictions: Restriction[];
  /** The platform legs (with the exposure the bet adds), then the foreign legs. */
  legs: DecisionLeg[];
  /** Every leg's accepted odds, platform then foreign, in bet order. */
  legOdds: DecisionLeg['exposure'][];
  /** The risk engine's part: decided again on the locked exposure; undefined when the engine is off. */
  risk?: RiskRecheck;
  /** The request as received (kept for repeats). */
  request: string;
}

/**
 * Records reported bets in one transaction: the limits of the bets that passed are decided again on the exposure under
 * its lock (in order, each seeing those accepted before it); the accepted ones get their leg exposures; then every
 * bet is inserted in its decided state — `accepted`, or `declined` with its restrictions — with its selections, in one
 * statement per table (the insert's trigger adds the accepted bets' exposure, migration 0032: no transition, one row
 * version per bet); the accepted bets' times are recorded and each answer is stored. Returns each answer's JSON text,
 * in order, built from what was written (no row read back).
 */
export async function writeReports(tx: Executor, items: readonly ReportWrite[]): Promise<string[]> {
  const rechecking: ReportWrite[] = [];
  for (const w of items) if (w.restrictions.length === 0 && w.risk !== undefined) rechecking.push(w);
  const rechecked = await recheckLimits(
    tx,
    rechecking.map((w) => ({ risk: w.risk as RiskRecheck })),
  );
  let next = 0;
  const decided = items.map((w) => {
    // the bets rechecked come in the order of items
    const again = rechecking[next] === w ? rechecked[next++] : undefined;
    if (!again)
      return { w, restrictions: w.restrictions, legs: w.legs, accepted: w.restrictions.length === 0 };
    const foreign = countForeign(w);
    const legs = foreign === 0 ? again.legs : [...again.legs, ...w.legs.slice(w.legs.length - foreign)];
    return { w, restrictions: again.restrictions, legs, accepted: again.restrictions.length === 0 };
  });
  const accepted = decided.filter((d) => d.accepted);
  // the leg exposures first: the insert of an accepted bet adds them to its outcomes (the same transaction)
  await writeAcceptedExposure(
    tx,
    accepted.flatMap((d) =>
      d.w.risk?.eurRate
        ? [
            {
              betId: d.w.bet.id,
              whiteLabelId: d.w.bet.whiteLabelId,
              stake: d.w.bet.stake,
              totalOdds: d.w.bet.totalOdds,
              legOdds: d.w.legOdds,
              legs: d.legs,
              eurRate: d.w.risk.eurRate,
            },
          ]
        : [],
    ),
  );
  const bets = await insertReportedBets(
    tx,
    decided.map((d) => ({
      ...d.w.bet,
      state: d.accepted ? ('accepted' as const) : ('declined' as const),
      restrictions: d.restrictions,
    })),
  );
  await recordBetTimes(
    tx,
    accepted.map((d) => ({
      whiteLabelId: d.w.bet.whiteLabelId,
      playerId: d.w.bet.playerId,
      sportEventIds: newBetSportEvents(d.w.bet),
      at: d.w.bet.decidedAt,
    })),
  );
  const answers = decided.map((d, i) =>
    JSON.stringify({ bet: toPartnerBet(bets[i] as PartnerBetSource), restrictions: d.restrictions }),
  );
  await insertReports(
    tx,
    decided.map((d, i) => ({
      whiteLabelId: d.w.bet.whiteLabelId,
      partnerBetId: d.w.bet.partnerBetId,
      request: d.w.request,
      answer: answers[i] as string,
      betId: d.w.bet.id,
    })),
  );
  return answers;
}

function countForeign(w: ReportWrite): number {
  let n = 0;
  for (const s of w.bet.selections) if (s.foreignId) n++;
  return n;
}

/** The group commit of reported bets: the reports arriving together share one transaction (and one lock). */
export class ReportWrites {
  private readonly batch: GroupCommit<ReportWrite, string>;

  constructor(database: Database, opts: { maxBatch?: number; maxConcurrent?: number } = {}) {
    this.batch = new GroupCommit(
      (items) => inTransaction(database.db, (tx) => writeReports(tx, items)),
      opts,
    );
  }

  /** Records one reported bet (see {@link writeReports}); resolves with its answer's JSON text. */
  write(item: ReportWrite): Promise<string> {
    return this.batch.submit(item);
  }
}
