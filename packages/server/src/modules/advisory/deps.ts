import type { PlacementDeps } from '../placement/index.js';
import type { AdvisoryWrites } from './advisory-writes.js';

/** What the advisory mode needs: the one decision's inputs (replica, white labels, risk facts, settings). */
export interface AdvisoryDeps {
  placement: PlacementDeps;
  /** The group commit of first reported advisory bets. */
  writes: AdvisoryWrites;
}
