import type { SettlementDeps } from '../deps.js';
import { type OperatorActionInput, type OperatorActionResult, runOperatorAction } from './operator-action.js';

/**
 * Voids a bet (the bet itself is invalid: a palpable error, a rules breach): every selection becomes 6 "cancelled"
 * (factor 1) with the reason, and the bet settles for its stake (settle_type 2, status 5 refunded) — with an
 * unsettle first when it was settled. The feed no longer changes those selections.
 */
export function voidBet(deps: SettlementDeps, input: OperatorActionInput): Promise<OperatorActionResult> {
  return runOperatorAction(deps, 'void', input);
}
