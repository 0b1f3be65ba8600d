import type { AppDeps } from '../../app/wiring.js';
import type { PlacementDeps } from '../bets/placement/index.js';

/** What the advisory mode needs: the one decision's inputs (replica, white labels, risk facts, settings). */
export interface AdvisoryDeps {
  placement: PlacementDeps;
}

/** The advisory dependencies out of the app's. */
export function advisoryDeps(app: AppDeps): AdvisoryDeps {
  return { placement: app.placement };
}
