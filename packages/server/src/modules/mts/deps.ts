import type { PlacementDeps } from '../placement/index.js';
import type { SettlementDeps } from '../settlement/index.js';
import type { ReportWrites } from './report-writes.js';

/** What the use cases of partner-reported (MTS) bets need. */
export interface MtsDeps {
  /** The one decision's inputs (replica, white labels, risk engine, settings) and the bet delay. */
  placement: PlacementDeps;
  /** Settlement of a bet whose foreign selections the partner resulted. */
  settlement: SettlementDeps;
  /** The longest a reported bet waits out its bet delay, seconds. */
  maxWaitS: number;
  /** The group commit of reported bets. */
  writes: ReportWrites;
  /** Waits `ms` (the bet delay). */
  sleep(ms: number): Promise<void>;
}
