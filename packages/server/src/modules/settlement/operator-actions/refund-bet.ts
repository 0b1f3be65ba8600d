import type { SettlementDeps } from '../deps.js';
import { type OperatorActionInput, type OperatorActionResult, runOperatorAction } from './operator-action.js';

/**
 * Refunds a bet manually (bookmaker's decision; spec 03 status 6): every selection becomes 7 "refunded manually"
 * (DECISIONS D4, factor 1) with the reason, and the bet settles for its stake (settle_type 2) — with an unsettle
 * first when it was settled. The feed no longer changes those selections (`resettle --reinstate` undoes it).
 */
export function refundBet(deps: SettlementDeps, input: OperatorActionInput): Promise<OperatorActionResult> {
  return runOperatorAction(deps, 'refund', input);
}
