import type { DecisionLeg, Rational, Restriction } from '@bookie/core';
import { GroupCommit } from '@bookie/storage';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import {
  insertReportedBets,
  newBetSportEvents,
  type PartnerBetSource,
  type PlayerEvents,
  type ReportedBetRow,
  recordBetTimes,
  toPartnerBet,
} from '../bets/index.js';
import {
  type AcceptedExposure,
  type RecheckItem,
  type RiskRecheck,
  recheckLimits,
  writeAcceptedExposure,
} from '../risk/index.js';
import { insertReports, type Report } from './mts.repo.js';

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
  /** The bet's stake and total odds as exact values: those of `bet.stake` and `bet.totalOdds` (not parsed again). */
  values?: { stake: Rational; totalOdds: Rational };
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
  const rechecking: RecheckItem[] = [];
  for (const w of items)
    if (w.restrictions.length === 0 && w.risk !== undefined) rechecking.push(w as RecheckItem);
  const rechecked = await recheckLimits(tx, rechecking);
  let next = 0;
  const n = items.length;
  const rows: ReportedBetRow[] = new Array(n);
  const exposures: AcceptedExposure[] = [];
  const times: Array<PlayerEvents & { at: Date }> = [];
  for (let i = 0; i < n; i++) {
    const w = items[i] as ReportWrite;
    // the bets rechecked come in the order of items
    const again = rechecking[next] === w ? rechecked[next++] : undefined;
    let restrictions = w.restrictions;
    let legs = w.legs;
    if (again) {
      restrictions = again.restrictions;
      const foreign = countForeign(w);
      legs = foreign === 0 ? again.legs : [...again.legs, ...w.legs.slice(w.legs.length - foreign)];
    }
    const accepted = restrictions.length === 0;
    // the bet object is the write's own: its decided state is set on it (a batch written again sets it again)
    const bet = w.bet as ReportedBetRow;
    bet.state = accepted ? 'accepted' : 'declined';
    bet.restrictions = restrictions;
    rows[i] = bet;
    if (!accepted) continue;
    // the leg exposures first: the insert of an accepted bet adds them to its outcomes (the same transaction)
    const eurRate = w.risk?.eurRate;
    if (eurRate)
      exposures.push({
        betId: bet.id,
        whiteLabelId: bet.whiteLabelId,
        stake: bet.stake,
        totalOdds: bet.totalOdds,
        legOdds: w.legOdds,
        legs,
        eurRate,
        ...(w.values ? { values: w.values } : {}),
      });
    times.push({
      whiteLabelId: bet.whiteLabelId,
      playerId: bet.playerId,
      sportEventIds: newBetSportEvents(bet),
      at: bet.decidedAt,
    });
  }
  await writeAcceptedExposure(tx, exposures);
  const bets = await insertReportedBets(tx, rows);
  await recordBetTimes(tx, times);
  const answers: string[] = new Array(n);
  const reports: Report[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i] as ReportedBetRow;
    const answer = JSON.stringify({
      bet: toPartnerBet(bets[i] as PartnerBetSource),
      restrictions: row.restrictions,
    });
    answers[i] = answer;
    reports[i] = {
      whiteLabelId: row.whiteLabelId,
      partnerBetId: row.partnerBetId,
      request: (items[i] as ReportWrite).request,
      answer,
      betId: row.id,
    };
  }
  await insertReports(tx, reports);
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
