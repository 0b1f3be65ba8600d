import type { AdvisoryAnswer, AdvisoryBet, AdvisoryBetRequest } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { inJsonbKeyOrder } from '../../db/jsonb.js';
import type { Executor } from '../../db/transaction.js';
import { decideBet, requestSportEvents } from '../decision/index.js';
import { parseReportedBet } from '../mts/index.js';
import { findAdvisoryBet } from './advisory.repo.js';
import { advisoryBetOf, canonicalJson } from './advisory-view.js';
import type { AdvisoryDeps } from './deps.js';

/**
 * Advisory mode (`POST /bets/advisory`): the partner took a bet on its own and asks what the platform would advise.
 * The one decision runs on the bet as it is now — integrity, odds (strategy 1), bet type, limits, exposure and the
 * player's group, bet_interval — and every failing restriction is answered with its context; nothing is decided.
 * The bet is recorded as version 1 (accepted) with the advice, never in exposure; its placement time counts for
 * the player's bet_interval. A repeat of the same request answers the same; another body under the id is 409.
 *
 * @throws DomainError validation_error naming the field; idempotency_conflict (409).
 */
export async function adviseBet(
  deps: AdvisoryDeps,
  whiteLabelId: string,
  body: AdvisoryBetRequest,
): Promise<AdvisoryAnswer> {
  const p = deps.placement;
  const bet = advisoryBetOf(body);
  const wl = await p.whiteLabels.get(whiteLabelId);
  // a bet type that does not fit the selections is advised (bet_type), not refused
  const req = parseReportedBet(body, wl.currencies);
  if (Number.isNaN(Date.parse(body.created_at)))
    throw validationError('created_at', 'must be an ISO 8601 date-time');
  // the repeat check rides on the primary key of the insert: a repeat fails the write and reads the stored bet then
  const verdict = await decideBet(p, { mode: 'advise', whiteLabel: wl, playerId: body.player_id, bet: req });
  const at = new Date(p.clock.now());
  const restrictions = verdict.restrictions as AdvisoryAnswer['restrictions'];
  try {
    await deps.writes.write({
      whiteLabelId,
      bet,
      playerId: body.player_id,
      restrictions,
      at,
      sportEventIds: requestSportEvents(req),
    });
  } catch (err) {
    if ((err as { code?: unknown }).code === '23505') {
      const stored = await storedAnswer(p.database.db, whiteLabelId, bet);
      if (stored) return stored;
    }
    throw err;
  }
  // the answer reads as the stored bet and advice will (jsonb's key order), so a repeat answers the same bytes
  return { bet: { ...inJsonbKeyOrder(bet), version: 1 }, restrictions: inJsonbKeyOrder(restrictions) };
}

/**
 * The answer stored for a bet id: the first report's bet and advice when `bet` is that report again.
 *
 * @throws DomainError idempotency_conflict (409) for another body, or a bet updated since.
 */
async function storedAnswer(
  db: Executor,
  whiteLabelId: string,
  bet: Omit<AdvisoryBet, 'version'>,
): Promise<AdvisoryAnswer | undefined> {
  const stored = await findAdvisoryBet(db, whiteLabelId, bet.id);
  if (!stored) return undefined;
  const first = stored.version === 1 ? stored.state : undefined;
  if (canonicalJson(first) !== canonicalJson(bet)) {
    throw new DomainError('idempotency_conflict', `bet_id: ${bet.id} was already reported`, {
      field: 'bet_id',
    });
  }
  return {
    bet: { ...(stored.state as Omit<AdvisoryBet, 'version'>), version: 1 },
    restrictions: stored.restrictions as AdvisoryAnswer['restrictions'],
  };
}
