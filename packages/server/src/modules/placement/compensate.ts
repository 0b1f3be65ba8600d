import { CALLBACK_PATHS } from '@bookie/contracts';
import { type Restriction, restriction } from '@bookie/core';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { SESSION_ENDING_CODES } from '../auth/index.js';
import { declineBody, transitionBet } from '../bets/index.js';
// bonuses: a bet that ends before its decision gives its bonuses back
import { releaseBonuses } from '../bonuses/index.js';
import { enqueueCallbacks, recordSyncDeliveries, type SyncOutcome } from '../callbacks/index.js';
import type { PlacementDeps } from './deps.js';
import type { FormedBet } from './form.js';
import type { HoldAnswer, PlaceOutcome } from './hold.js';

/** A hold that did not hold the stake: the partner refused it, or it could not be reached. */
export type FailedHold = Exclude<HoldAnswer, { kind: 'held' }>;

/**
 * Writes the bet's `/bet/place` with its failed outcome, once. Called after the bet's transition in the same
 * transaction (the bet locked before its outbox row, as the recovery of interrupted placements does), and also when
 * the recovery decided the bet first: the row then takes this outcome, the partner's last word.
 */
async function recordFailedPlace(
  tx: Executor,
  formed: FormedBet,
  outcome: Omit<SyncOutcome, 'delivered'>,
): Promise<void> {
  await recordSyncDeliveries(tx, [
    {
      ...formed.held.place,
      delivered: false,
      ...outcome,
      createdAt: new Date(formed.held.bet.row.created_at),
    },
  ]);
}

/**
 * The compensation of a failed hold (D9), named once: a refused `/bet/place` ends the bet as Place Error; one that
 * could not be reached ends it as force_decline with a `/bet/decline` that releases any money it held.
 */
export async function compensate(deps: PlacementDeps, formed: FormedBet, failed: FailedHold): Promise<void> {
  if (failed.kind === 'refused') await endAsPlaceError(deps, formed, failed);
  else await forceDecline(deps, formed, failed);
}

/** The restriction a final `/bet/place` error code ends the bet with (D9). */
function placeErrorRestriction(code: string, data: Record<string, unknown>): Restriction {
  switch (code) {
    case 'not_enough_balance':
      return restriction('not_enough_balance', { actual_balance: String(data.actual_balance ?? '') });
    case 'player_limit_crossed':
      return restriction('player_limit', { types: Array.isArray(data.types) ? data.types.map(String) : [] });
    default:
      return restriction('internal_error', { code });
  }
}

/**
 * The partner refused the hold with a final code: the bet ends as Place Error with that code's restriction and gives
 * its bonuses back; a code that says the session is over ends the session.
 */
async function endAsPlaceError(
  deps: PlacementDeps,
  formed: FormedBet,
  refused: Extract<PlaceOutcome, { kind: 'refused' }>,
): Promise<void> {
  const betId = formed.held.bet.row.id;
  const r = placeErrorRestriction(refused.code, refused.data);
  await inTransaction(deps.database.db, async (tx) => {
    const now = new Date(deps.clock.now());
    if (
      await transitionBet(tx, betId, 'hold_requested', 'place_error', { restrictions: [r], decidedAt: now })
    ) {
      await releaseBonuses(tx, betId, new Date(deps.clock.now())); // bonuses
    }
    await recordFailedPlace(tx, formed, {
      attempts: refused.attempts,
      status: refused.status,
      error: `refused: ${refused.code}`,
    });
  });
  if (SESSION_ENDING_CODES.has(refused.code)) {
    await deps.sessions.expire(formed.session.whiteLabelId, formed.session.token).catch(() => {});
  }
}

/**
 * The hold could not be reached (retries exhausted, D9): the bet ends as force_decline, gives its bonuses back, and
 * a `/bet/decline` releases whatever a timed-out `/bet/place` may have held. The cause travels with the bet (its
 * restriction, the `/bet/decline`) and is logged here.
 */
async function forceDecline(
  deps: PlacementDeps,
  formed: FormedBet,
  exhausted: Extract<HoldAnswer, { kind: 'exhausted' }>,
): Promise<void> {
  const { session, held } = formed;
  const betId = held.bet.row.id;
  const r = restriction('internal_error', {
    code: 'place_retry_limit_reached',
    attempts: exhausted.attempts,
    last_status: exhausted.status,
    last_error: exhausted.error,
  });
  deps.logger.warn(
    {
      betId,
      whiteLabelId: session.whiteLabelId,
      url: exhausted.callbackUrl
        ? `${exhausted.callbackUrl.replace(/\/+$/, '')}${CALLBACK_PATHS.place}`
        : undefined,
      attempts: exhausted.attempts,
      lastStatus: exhausted.status,
      lastError: exhausted.error,
    },
    'bet force-declined: the partner /bet/place could not be reached',
  );
  const declined = await inTransaction(deps.database.db, async (tx) => {
    const now = new Date(deps.clock.now());
    const moved = await transitionBet(tx, betId, 'hold_requested', 'force_declined', {
      restrictions: [r],
      decidedAt: now,
    });
    if (moved) await releaseBonuses(tx, betId, new Date(deps.clock.now())); // bonuses
    // the /bet/place before the /bet/decline (their order, D10)
    await recordFailedPlace(tx, formed, {
      attempts: exhausted.attempts,
      status: exhausted.status,
      error: exhausted.error,
    });
    if (moved) {
      await enqueueCallbacks(tx, [
        {
          whiteLabelId: session.whiteLabelId,
          betId,
          path: CALLBACK_PATHS.decline,
          body: declineBody(held.bet, [r]),
          foreignParams: session.params,
        },
      ]);
    }
    return moved;
  });
  if (declined) deps.callbacks.dispatcher.kick();
}
