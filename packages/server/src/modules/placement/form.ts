import { randomUUID } from 'node:crypto';
import type { BetView, PlaceBetRequest, SportEvent } from '@bookie/contracts';
import {
  type BuilderSettings,
  DomainError,
  formatFeedOddValue,
  type OddsStrategy,
  parseOdds,
  parseStake,
  type Restriction,
  restriction,
  validationError,
} from '@bookie/core';
import type { PlayerSession } from '../../http/auth.js';
import { builderSettings, repriceBuilder } from '../bet-builder/index.js';
import { builderRows, eventInfo, selectionNames } from '../bets/index.js';
import {
  groupAtHold,
  type PlacementRequest,
  parseBuilders,
  requestLegs,
  requestSportEvents,
  totalOddsOf,
} from '../decision/index.js';
import type { WhiteLabel } from '../tenants/index.js';
import type { PlacementDeps } from './deps.js';
import type { HeldBet, HoldWrite } from './placement-writes.js';
import { placedWithKey, sameRequest } from './repeat.js';

/** A bet formed in `hold_requested` with its `/bet/place` ready to send: what the later steps work on. */
export interface FormedBet {
  session: PlayerSession;
  body: PlaceBetRequest;
  req: PlacementRequest;
  whiteLabel: WhiteLabel;
  /** When the bet was received, unix ms. */
  receivedAt: number;
  /** The bet as held, its `/bet/place` and the player's last bets. */
  held: HeldBet;
  /** The player's risk group (D38): known, or recorded with the hold. */
  group: string;
}

/** Parses the request into exact values; throws validation_error naming the field. */
export function parsePlacement(body: PlaceBetRequest, session: PlayerSession): PlacementRequest {
  if (body.currency !== session.currency) {
    throw validationError('currency', `must be the session's currency ${session.currency}`);
  }
  if (body.bet_type !== 'system' && body.system_sizes !== undefined) {
    throw validationError('system_sizes', 'only a system bet has system sizes');
  }
  if (body.bet_type === 'system' && body.system_sizes === undefined) {
    throw validationError('system_sizes', 'a system bet needs its sizes');
  }
  const builders = parseBuilders(body.bet_builders, 'odds');
  if (body.selections.length === 0 && builders.length === 0) {
    throw validationError('selections', 'a bet needs at least one selection or bet builder');
  }
  return {
    betType: body.bet_type,
    systemSizes: body.system_sizes ?? [],
    stake: parseStake(body.stake, 'stake'),
    currency: body.currency,
    oddsStrategy: body.odds_strategy as OddsStrategy,
    selections: body.selections.map((s, i) => ({
      sport_event_id: s.sport_event_id,
      market_id: s.market_id,
      odd_id: s.odd_id,
      odds: parseOdds(s.odds, `selections[${i}].odds`, { maxDecimals: 12 }),
    })),
    builders,
  };
}

/**
 * A selection that does not exist cannot form a bet: refused before any money moves.
 *
 * @throws DomainError restricted with every `*_existence` restriction.
 */
function refuseMissingSelections(req: PlacementRequest, events: ReadonlyMap<string, SportEvent | undefined>) {
  const missing: Restriction[] = [];
  for (const s of requestLegs(req)) {
    const event = events.get(s.sport_event_id);
    const market = event?.markets[s.market_id];
    if (!event) missing.push(restriction('sport_event_existence', { sport_event_id: s.sport_event_id }));
    else if (!market) {
      missing.push(
        restriction('market_existence', { sport_event_id: s.sport_event_id, market_id: s.market_id }),
      );
    } else if (!market.odds[s.odd_id]) {
      missing.push(
        restriction('odd_existence', {
          sport_event_id: s.sport_event_id,
          market_id: s.market_id,
          odd_id: s.odd_id,
        }),
      );
    }
  }
  if (missing.length > 0) {
    throw new DomainError('restricted', 'the bet selects odds that do not exist', { restrictions: missing });
  }
}

/** The bet's row in `hold_requested`, its selections as the catalogue shows them now. */
function holdWrite(
  deps: PlacementDeps,
  formed: Pick<FormedBet, 'session' | 'body' | 'req' | 'receivedAt'>,
  events: ReadonlyMap<string, SportEvent | undefined>,
  firstRequest: HoldWrite['firstRequest'],
  builderSettings: BuilderSettings | undefined,
): HoldWrite {
  const { session, body, req, receivedAt: now } = formed;
  const builders = req.builders ?? [];
  const total = formatFeedOddValue(
    totalOddsOf(
      req.betType,
      [...req.selections.map((s) => s.odds), ...builders.map((b) => b.odds)],
      req.systemSizes,
      deps.settings.maxSystemCombinations,
    ),
  );
  const write: HoldWrite = {
    id: randomUUID(),
    placeRequestId: randomUUID(),
    whiteLabelId: session.whiteLabelId,
    playerId: session.playerId,
    currency: req.currency,
    betType: req.betType,
    systemSizes: req.systemSizes,
    stake: body.stake,
    oddsStrategy: req.oddsStrategy,
    baseOdds: total,
    totalOdds: total,
    freebetId: body.freebet_id ?? null,
    insuranceId: body.insurance_id ?? null,
    boostId: body.boost_id ?? null,
    foreignParams: session.params,
    sessionTokenHash: session.sessionId ?? null,
    clientKey: body.client_key ?? null,
    createdAt: new Date(now),
    placementDeadline: new Date(now + deps.settings.placementDeadlineMs),
    selections: req.selections.map((s) => {
      const event = events.get(s.sport_event_id) as SportEvent;
      const odds = formatFeedOddValue(s.odds);
      return {
        sportEventId: s.sport_event_id,
        marketId: s.market_id,
        oddId: s.odd_id,
        requestedOdds: odds,
        odds,
        oddUpdatedAt: new Date(event.updated_at),
        matchStatus: event.fixture.status,
        eventInfo: eventInfo(event, s.market_id) as unknown as Record<string, unknown>,
        names: selectionNames(event, s.market_id, s.odd_id),
      };
    }),
    // builders at the odds the player saw, with the model's probabilities of their price now
    builders: builderSettings
      ? builderRows({
          builders,
          events,
          quotes: builders.map((b) => {
            const priced = repriceBuilder(
              events.get(b.sport_event_id) as SportEvent,
              b.legs,
              builderSettings,
            );
            return priced.ok ? priced.value : undefined;
          }),
          margin: builderSettings.margin,
          at: now,
          unknownInfo: () => ({}),
        })
      : [],
  };
  // added last: an object literal that starts with a spread is built key by key, slowly
  if (firstRequest) write.firstRequest = firstRequest;
  return write;
}

/**
 * Step 1, forming → hold requested: checks the book is connected, the white label offers the currency and every
 * selection exists, then commits the bet with the request_id of its `/bet/place` (and the player's first request,
 * spec 03 VIP). The same `client_key` formed at the same moment by another request answers that request's bet.
 *
 * @throws DomainError unavailable (the book is not connected), validation_error (currency), restricted.
 */
export async function formBet(
  deps: PlacementDeps,
  session: PlayerSession,
  body: PlaceBetRequest,
  req: PlacementRequest,
): Promise<FormedBet | { repeat: BetView }> {
  if (!deps.catalog.connected)
    throw new DomainError('unavailable', 'the book is not available; try again shortly');
  const whiteLabel = await deps.whiteLabels.get(session.whiteLabelId);
  if (!whiteLabel.currencies.includes(req.currency)) {
    throw validationError('currency', `the white label does not offer ${req.currency}`);
  }
  const events = new Map(requestSportEvents(req).map((id) => [id, deps.catalog.getEvent(id)]));
  refuseMissingSelections(req, events);
  const builderSettingsNow =
    (req.builders ?? []).length > 0 ? await builderSettings(deps, session.whiteLabelId) : undefined;
  const receivedAt = deps.clock.now();
  // the risk engine: the group this request would give a player without one (recorded with the hold)
  const group = await groupAtHold(deps, {
    whiteLabelId: session.whiteLabelId,
    playerId: session.playerId,
    currency: req.currency,
    ...(body.recommended_max_payout !== undefined
      ? { recommendedMaxPayout: { value: body.recommended_max_payout, field: 'recommended_max_payout' } }
      : {}),
  });
  let held: HeldBet;
  try {
    held = await deps.writes.hold(
      holdWrite(deps, { session, body, req, receivedAt }, events, group.firstRequest, builderSettingsNow),
    );
  } catch (err) {
    // the same client key placed at the same moment: the other request formed the bet
    const concurrent = isUniqueViolation(err)
      ? await placedWithKey(deps, session, body.client_key)
      : undefined;
    if (concurrent) return { repeat: sameRequest(concurrent, req, body) };
    throw err;
  }
  if (held.riskGroup !== undefined)
    deps.risk?.book.rememberPlayerGroup(session.whiteLabelId, session.playerId, held.riskGroup);
  return {
    session,
    body,
    req,
    whiteLabel,
    receivedAt,
    held,
    group: group.known ?? held.riskGroup ?? group.firstRequest?.group ?? 'default',
  };
}

/** A unique constraint refused the insert (Postgres SQLSTATE 23505). */
function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
