import type { SettlementDeps } from '../deps.js';
import { type OperatorActionInput, type OperatorActionResult, runOperatorAction } from './operator-action.js';

/**
 * Cancels selections of a bet (`input.selections`, every one by default): each becomes 6 "cancelled" (factor 1)
 * with the reason, and the bet is recalculated on the others (spec 01: "if a bet with several outcomes has an
 * outcome cancelled, winnings are recalculated") — settled at once when the others are resulted. Cancelling every
 * selection is the same as {@link voidBet}.
 */
export function cancelBet(deps: SettlementDeps, input: OperatorActionInput): Promise<OperatorActionResult> {
  return runOperatorAction(deps, 'cancel', input);
}
