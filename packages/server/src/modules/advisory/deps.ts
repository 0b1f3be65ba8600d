import type { PlacementDeps } from '../placement/index.js';

/** What the advisory mode needs: the one decision's inputs (replica, white labels, risk facts, settings). */
export interface AdvisoryDeps {
  placement: PlacementDeps;
}
