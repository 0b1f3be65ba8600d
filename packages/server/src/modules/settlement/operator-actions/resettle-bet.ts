import type { SettlementDeps } from '../deps.js';
import { type OperatorActionInput, type OperatorActionResult, runOperatorAction } from './operator-action.js';

/**
 * Resettles a bet now: its selections are recomputed from what settlement knows (operator results, rollbacks, the
 * results of the feed) and the bet from its selections with the current caps; a different result gives an unsettle
 * and a settle, the same result nothing. With `reinstate`, operator results are dropped first (undoes a manual
 * refund, void or cancel).
 */
export function resettleBet(deps: SettlementDeps, input: OperatorActionInput): Promise<OperatorActionResult> {
  return runOperatorAction(deps, 'resettle', input);
}
