import type { AppDeps } from '../../app/wiring.js';
import type { PlacementDeps } from '../bets/placement/index.js';
import { type SettlementDeps, settlementDeps } from '../settlement/deps.js';
import { ReportWrites } from './report-writes.js';

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

/** The MTS dependencies out of the app's. */
export function mtsDeps(app: AppDeps): MtsDeps {
  return {
    placement: app.placement,
    settlement: settlementDeps(app),
    maxWaitS: app.config.bets.mtsMaxWaitS,
    writes: new ReportWrites(app.database),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
}
