import type { SettlementDeps } from '../deps.js';
import { type OperatorActionResult, runOperatorAction } from './operator-action.js';

/** Input of a partner's cancel or void of one of its bets. */
export interface PartnerBetActionInput {
  whiteLabelId: string;
  betId: string;
  reason: string;
  /** Who (audit log): `partner:<client_id>` or `user:<email>`. */
  actor: string;
}

/**
 * The partner cancels a bet before settlement (DECISIONS D54 `POST /bets/{bet_id}/cancel`): every selection becomes
 * 6 "cancelled" with the reason and the stake comes back — the bet settles as refunded (status 5, settle_type 2)
 * with its `/bet/settle` callback, its audit row and the change in one transaction (the operator's void).
 *
 * @throws DomainError not_found (no such bet of this white label), conflict (settled, or never accepted),
 * validation_error (`reason`).
 */
export function cancelBetBeforeSettlement(
  deps: SettlementDeps,
  input: PartnerBetActionInput,
): Promise<OperatorActionResult> {
  return runOperatorAction(deps, 'void', {
    ...input,
    beforeSettlement: true,
    auditAction: 'bet.partner_cancel',
  });
}

/**
 * The partner voids a bet before settlement (DECISIONS D54 `POST /bets/{bet_id}/void`): the bookmaker's decision —
 * every selection becomes 7 "refunded manually" and the stake comes back (status 6, refunded manually), with its
 * callback and audit row in one transaction (the operator's refund).
 *
 * @throws DomainError not_found, conflict, validation_error as {@link cancelBetBeforeSettlement}.
 */
export function voidBetBeforeSettlement(
  deps: SettlementDeps,
  input: PartnerBetActionInput,
): Promise<OperatorActionResult> {
  return runOperatorAction(deps, 'refund', {
    ...input,
    beforeSettlement: true,
    auditAction: 'bet.partner_void',
  });
}
