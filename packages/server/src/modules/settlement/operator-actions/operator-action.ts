import type { BetView } from '@bookie/contracts';
import { DomainError, ODD_STATUS, validationError } from '@bookie/core';
import type { Bet } from '../../bets/index.js';
import { toBetView } from '../../bets/index.js';
import type { SettlementDeps } from '../deps.js';
import { type RefreshTransition, refreshTransition } from '../refresh-transition.js';
import { type Override, refreshBets } from '../results/refresh-bets.js';
import { OPEN_STATES } from '../settlement.repo.js';

/** The operator's actions on one bet (docs/adr/0008-settlement.md "Operator actions"). */
export type OperatorAction = 'refund' | 'void' | 'cancel' | 'resettle';

/** Input of an operator action. */
export interface OperatorActionInput {
  betId: string;
  /** Why (kept in the audit log and, for refund / void / cancel, as the selections' `status_reason`). */
  reason: string;
  /** Who (audit log), e.g. `admin-api` or `cli:<user>`. */
  actor: string;
  /** cancel: the selection indexes (0-based) to cancel; default every selection. */
  selections?: number[];
  /** resettle: give selections set by an operator back to the feed first. */
  reinstate?: boolean;
  /** Only a bet of this white label (another white label's bet is not found): the partner's own actions. */
  whiteLabelId?: string;
  /** Only before settlement: a settled bet is a conflict (the partner's cancel and void, DECISIONS D54). */
  beforeSettlement?: boolean;
  /** The audit log's action name, when not `bet.<action>`. */
  auditAction?: string;
}

/** What an operator action did. */
export interface OperatorActionResult {
  action: OperatorAction;
  /** `settled`, `unsettled`, `resettled` (unsettle + settle) or `none` (the bet's settlement did not change). */
  transition: RefreshTransition;
  callbacks: number;
  bet: BetView;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function overrideFor(action: OperatorAction, input: OperatorActionInput): Override | undefined {
  switch (action) {
    case 'refund':
      return { indices: 'all', status: ODD_STATUS.REFUNDED_MANUALLY, reason: input.reason };
    case 'void':
      return { indices: 'all', status: ODD_STATUS.CANCELLED, reason: input.reason };
    case 'cancel':
      return { indices: input.selections ?? 'all', status: ODD_STATUS.CANCELLED, reason: input.reason };
    case 'resettle':
      return undefined;
  }
}

/**
 * Runs an operator action on one bet in one transaction with its callbacks and an audit_log row.
 *
 * @throws DomainError validation_error (`reason`, `selections`), not_found (no such bet), conflict (the bet is not
 * accepted, settled or unsettled: still placing, declined, cashed out…).
 */
export async function runOperatorAction(
  deps: SettlementDeps,
  action: OperatorAction,
  input: OperatorActionInput,
): Promise<OperatorActionResult> {
  const reason = input.reason?.trim() ?? '';
  if (reason === '') throw validationError('reason', 'is required');
  if (reason.length > 500) throw validationError('reason', 'must be at most 500 characters');
  if (!UUID.test(input.betId))
    throw new DomainError('not_found', `no bet ${input.betId}`, { id: input.betId });
  const sel = input.selections;
  if (sel !== undefined && (sel.length === 0 || new Set(sel).size !== sel.length)) {
    throw validationError('selections', 'must name distinct selections');
  }
  let found = false;
  const check = (bet: Bet) => {
    if (input.whiteLabelId !== undefined && bet.row.white_label_id !== input.whiteLabelId) {
      throw new DomainError('not_found', `no bet ${input.betId}`, { id: input.betId });
    }
    found = true;
    if (input.beforeSettlement && bet.row.state === 'settled') {
      throw new DomainError('conflict', `bet ${bet.row.id} is already settled`, {
        id: bet.row.id,
        state: bet.row.state,
      });
    }
    if (!OPEN_STATES.includes(bet.row.state)) {
      throw new DomainError(
        'conflict',
        `bet ${bet.row.id} is ${bet.row.state}; only an accepted, settled or unsettled bet can be changed`,
        {
          id: bet.row.id,
          state: bet.row.state,
        },
      );
    }
    // the plain selections, then the builders (an operator acts on a builder as a whole: all its inner legs)
    const count = bet.selections.length + bet.builders.length;
    for (const i of sel ?? []) {
      if (!Number.isInteger(i) || i < 0 || i >= count) {
        throw validationError('selections', `no selection ${i}; the bet has ${count}`);
      }
    }
  };
  const override = overrideFor(action, { ...input, reason });
  const applied = await refreshBets(deps, [input.betId], {
    cause: `operator:${action}`,
    reinstate: action === 'resettle' && input.reinstate === true,
    override,
    check,
    audit: {
      actor: input.actor,
      action: input.auditAction ?? `bet.${action}`,
      details: {
        reason,
        ...(sel ? { selections: sel } : {}),
        ...(input.reinstate ? { reinstate: true } : {}),
      },
    },
  });
  const bet = applied.bets[0];
  if (!found || !bet) throw new DomainError('not_found', `no bet ${input.betId}`, { id: input.betId });
  return {
    action,
    transition: refreshTransition(applied),
    callbacks: applied.callbacks,
    bet: toBetView(bet),
  };
}
