import type { BetView, PlaceBetRequest } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { PlayerSession } from '../../http/auth.js';
import { failpoint } from '../../platform/failpoints.js';
import { answer } from './answer.js';
import { compensate } from './compensate.js';
import { decideAndWrite } from './decide-and-write.js';
import type { PlacementDeps } from './deps.js';
import { formBet, parsePlacement } from './form.js';
import { hold } from './hold.js';
import { repeatOf } from './repeat.js';

/**
 * Places a player's bet (spec 01 "States and transitions") as named steps, each state change committed with the
 * callbacks it causes:
 * 1. form: forming → hold requested, the bet with its `/bet/place` ({@link formBet}); a repeated `client_key`
 *    answers the bet it placed (D29);
 * 2. hold: `/bet/place` to the partner's wallet, synchronously with the D9 retries ({@link hold});
 *    compensation of a failed hold ({@link compensate}): Place Error when refused, force_decline with a
 *    `/bet/decline` when it could not be reached;
 * 3. decide and write: the one decision after the bet delay, Accept (`/bet/accept`) or Decline (`/bet/decline`
 *    with every failing restriction) ({@link decideAndWrite});
 * 4. answer: the bet as it is now, told to the player's stream ({@link answer}).
 *
 * @throws DomainError validation_error (bad input), forbidden (read-only session), unavailable (the book is not
 * connected), restricted (a selection that does not exist: no bet is formed), idempotency_conflict (a `client_key`
 * used for another bet).
 */
export async function placeBet(
  deps: PlacementDeps,
  session: PlayerSession,
  body: PlaceBetRequest,
): Promise<BetView> {
  if (!session.playerId) throw new DomainError('forbidden', 'a read-only session cannot place bets');
  const req = parsePlacement(body, session);
  const repeated = await repeatOf(deps, session, req, body);
  if (repeated) return repeated;

  const formed = await formBet(deps, session, body, req);
  if ('repeat' in formed) return formed.repeat;
  failpoint('placement:after-hold-commit');

  const held = await hold(deps, formed);
  failpoint('placement:after-place-answer');
  const betId = formed.held.bet.row.id;
  if (held.kind !== 'held') {
    await compensate(deps, formed, held);
    return answer(deps, betId);
  }

  const decided = await decideAndWrite(deps, formed, held);
  return answer(deps, betId, decided);
}
