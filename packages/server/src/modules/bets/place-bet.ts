import { randomUUID } from 'node:crypto';
import { type BetView, CALLBACK_PATHS, type PlaceBetRequest, type SportEvent } from '@bookie/contracts';
import {
  clientAppliedDelay,
  DomainError,
  eq,
  formatFeedOddValue,
  type OddsStrategy,
  type OutcomeKey,
  parseDecimal,
  parseOdds,
  parseStake,
  phaseOf,
  type Rational,
  type Restriction,
  type RiskState,
  remainingBetDelay,
  restriction,
  validationError,
} from '@bookie/core';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { PlayerSession } from '../../http/auth.js';
import type { Clock } from '../../platform/clock.js';
import { failpoint } from '../../platform/failpoints.js';
import { SESSION_ENDING_CODES } from '../auth/session-ending-answer.js';
// bonuses: the module's placement hooks, called where marked "bonuses"
import { checkBonuses } from '../bonuses/check-bonuses.js';
import { releaseBonuses } from '../bonuses/release-bonuses.js';
import { recordSyncOutcome } from '../callbacks/callbacks.repo.js';
import type { CallbacksService } from '../callbacks/callbacks.service.js';
import { enqueueCallbacks } from '../callbacks/enqueue-callbacks.js';
import { betDelayFor } from '../risk/bet-delay-for.js';
import type { RiskDeps } from '../risk/deps.js';
import { exposureOfOutcomes, firstRequestOf, riskStateOf } from '../risk/load-risk-state.js';
import type { WhiteLabel } from '../tenants/white-label.js';
import type { Bet, EventInfo } from './bet.js';
import type { BetEvents } from './bet-events.js';
import { toBetView } from './bet-view.js';
import { loadBets, transitionBet } from './bets.repo.js';
import { callPlace, DEFAULT_PLACE_POLICY, type PlaceRetryPolicy } from './call-place.js';
import { declineBody } from './callback-bodies.js';
import type { Catalog } from './catalog.js';
import type { PlacementWrites } from './placement-writes.js';
import { selectionNames } from './selection-names.js';
import {
  decisionSettings,
  hasLiveSelection,
  type PlacementRequest,
  totalOddsOf,
  validatePlacement,
} from './validate-placement.js';

/** Settings of placement. */
export interface PlacementSettings {
  /** Strategy-1 tolerance, a relative fraction (spec 01 strategy 1). */
  oddsTolerance: Rational;
  /** The express cap of D17 in a currency, or undefined when no EUR rate is configured for it. */
  expressCap(currency: string): Rational | undefined;
  /** How long a bet may stay in hold_requested before recovery force-declines it (ms). */
  placementDeadlineMs: number;
  /** Most combinations a system bet may have (`SYSTEM_MAX_COMBINATIONS`); more is declined `bet_type`. */
  maxSystemCombinations?: number;
  placePolicy?: PlaceRetryPolicy;
}

/** What placement needs. */
export interface PlacementDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  catalog: Catalog;
  callbacks: CallbacksService;
  whiteLabels: { get(id: string): Promise<WhiteLabel> };
  sessions: { expire(whiteLabelId: string, token: string): Promise<void> };
  betEvents: BetEvents;
  /** The group commit of holds and decisions. */
  writes: PlacementWrites;
  /** Told of every bet this process decided (Prometheus metrics); optional. */
  metrics?: {
    betDecided(bet: { whiteLabelId: string; state: string; createdAt: Date; decidedAt: Date | null }): void;
  };
  settings: PlacementSettings;
  /** The risk engine (D37, D38, D34); undefined when `RISK_ENGINE=off`. */
  risk?: RiskDeps;
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

/** The facts of a sport event a selection carries into callbacks, captured at placement. */
export function eventInfo(event: SportEvent, marketId: string): EventInfo {
  const competitors = Object.values(event.fixture.competitors)
    .sort((a, b) => a.home_away - b.home_away)
    .map((c) => ({ id: c.id, type: (c.type === 1 ? 1 : 2) as 1 | 2 }));
  return {
    provider_id: event.sources?.[0]?.id ?? 'bookie',
    sport_id: event.fixture.sport_id,
    tournament_id: event.fixture.tournament.id,
    market_type: String(event.markets[marketId]?.type_id ?? ''),
    state: event.fixture.status === 1 ? 'live' : 'prematch',
    start_time: event.fixture.start_time,
    competitors,
  };
}

/**
 * A repeat of a `client_key` answers the bet it placed when it asks for the same bet — type, sizes, stake, currency,
 * odds strategy, bonuses and selections with their requested odds (exact values, so `"1.50"` repeats `"1.5"`);
 * another request under the same key is refused (the rule of DECISIONS D29).
 *
 * @throws DomainError idempotency_conflict (409) naming `client_key`.
 */
function sameRequest(stored: Bet, req: PlacementRequest, body: PlaceBetRequest): BetView {
  const bet = stored.row;
  const exact = (s: string, field: string) => parseDecimal(String(s), { field, maxDecimals: 12 });
  const same =
    bet.bet_type === req.betType &&
    JSON.stringify(bet.system_sizes ?? []) === JSON.stringify(req.systemSizes) &&
    req.stake !== undefined &&
    eq(exact(bet.stake, 'stake'), req.stake) &&
    bet.currency === req.currency &&
    bet.odds_strategy === req.oddsStrategy &&
    (bet.freebet_id ?? null) === (body.freebet_id ?? null) &&
    (bet.insurance_id ?? null) === (body.insurance_id ?? null) &&
    (bet.boost_id ?? null) === (body.boost_id ?? null) &&
    stored.selections.length === req.selections.length &&
    req.selections.every((s, i) => {
      const b = stored.selections[i];
      return (
        b !== undefined &&
        b.sport_event_id === s.sport_event_id &&
        b.market_id === s.market_id &&
        b.odd_id === s.odd_id &&
        eq(exact(b.requested_odds, 'odds'), s.odds)
      );
    });
  if (!same) {
    throw new DomainError(
      'idempotency_conflict',
      `client_key: ${body.client_key} was already used for another bet request`,
      { field: 'client_key', bet_id: bet.id },
    );
  }
  return toBetView(stored);
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
  };
}

function eventsOf(catalog: Catalog, req: PlacementRequest): Map<string, SportEvent | undefined> {
  return new Map(req.selections.map((s) => [s.sport_event_id, catalog.getEvent(s.sport_event_id)]));
}

/**
 * Places a player's bet (spec 01 "States and transitions"): forming → hold requested (`/bet/place`,
 * synchronous) → processing (validation against the live book) → Accept (`/bet/accept`) or Decline
 * (`/bet/decline` with every failing restriction); a refused hold ends as Place Error, exhausted retries as
 * force_decline with a `/bet/decline` (D9). Every state change commits with the callbacks it causes.
 *
 * @throws DomainError validation_error (bad input), forbidden (read-only session), unavailable (the book is not
 * connected), restricted (a selection that does not exist: no bet is formed).
 */
export async function placeBet(deps: PlacementDeps, session: PlayerSession, body: PlaceBetRequest) {
  if (!session.playerId) throw new DomainError('forbidden', 'a read-only session cannot place bets');
  const req = parsePlacement(body, session);
  const { database, catalog, clock } = deps;
  const { playerId } = session;
  /** The bet this player already placed with the request's client key (undefined: none). */
  const placedWithKey = async () => {
    if (!body.client_key) return undefined;
    const id = await deps.writes.findByClientKey({
      whiteLabelId: session.whiteLabelId,
      playerId,
      clientKey: body.client_key,
    });
    return id ? ((await loadBets(database.db, [id]))[0] as Bet) : undefined;
  };
  const repeated = await placedWithKey();
  if (repeated) return sameRequest(repeated, req, body);
  if (!catalog.connected)
    throw new DomainError('unavailable', 'the book is not available; try again shortly');
  const wl = await deps.whiteLabels.get(session.whiteLabelId);
  if (!wl.currencies.includes(req.currency)) {
    throw validationError('currency', `the white label does not offer ${req.currency}`);
  }

  // A selection that does not exist cannot form a bet: refuse before any money moves.
  const events = eventsOf(catalog, req);
  const missing: Restriction[] = [];
  for (const s of req.selections) {
    const event = events.get(s.sport_event_id);
    if (!event) missing.push(restriction('sport_event_existence', { sport_event_id: s.sport_event_id }));
    else if (!event.markets[s.market_id]) {
      missing.push(
        restriction('market_existence', { sport_event_id: s.sport_event_id, market_id: s.market_id }),
      );
    } else if (!event.markets[s.market_id]?.odds[s.odd_id]) {
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

  // 1. forming → hold requested: the bet and its /bet/place commit together
  const now = clock.now();
  const betId = randomUUID();
  const requestedOdds = req.selections.map((s) => s.odds);
  const total = formatFeedOddValue(
    totalOddsOf(req.betType, requestedOdds, req.systemSizes, deps.settings.maxSystemCombinations),
  );
  // the risk engine: the group this request would give a player without one (recorded with the hold: spec 03 VIP)
  const riskSettings = deps.risk ? await deps.risk.book.get() : undefined;
  const knownGroup = deps.risk?.book.playerGroup(session.whiteLabelId, playerId);
  const firstRequest =
    deps.risk && riskSettings && knownGroup === undefined
      ? firstRequestOf(deps.risk, riskSettings, {
          currency: req.currency,
          ...(body.recommended_max_payout !== undefined
            ? { recommendedMaxPayout: parseStake(body.recommended_max_payout, 'recommended_max_payout') }
            : {}),
        })
      : undefined;
  let held: Awaited<ReturnType<PlacementWrites['hold']>>;
  try {
    held = await deps.writes.hold({
      ...(firstRequest ? { firstRequest } : {}),
      id: betId,
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
        return {
          sportEventId: s.sport_event_id,
          marketId: s.market_id,
          oddId: s.odd_id,
          requestedOdds: formatFeedOddValue(s.odds),
          odds: formatFeedOddValue(s.odds),
          oddUpdatedAt: new Date(event.updated_at),
          matchStatus: event.fixture.status,
          eventInfo: eventInfo(event, s.market_id) as unknown as Record<string, unknown>,
          names: selectionNames(event, s.market_id, s.odd_id),
        };
      }),
    });
  } catch (err) {
    // the same client key placed at the same moment: the other request formed the bet
    const concurrent = isUniqueViolation(err) ? await placedWithKey() : undefined;
    if (concurrent) return sameRequest(concurrent, req, body);
    throw err;
  }
  const { place, lastBets } = held;
  if (held.riskGroup !== undefined)
    deps.risk?.book.rememberPlayerGroup(session.whiteLabelId, playerId, held.riskGroup);
  const bet = held.bet;
  failpoint('placement:after-hold-commit');

  // 2. /bet/place, synchronously, with the D9 retries
  let outcome: Awaited<ReturnType<typeof callPlace>>;
  let callbackUrl: string | undefined;
  try {
    const target = await deps.callbacks.targets.get(session.whiteLabelId);
    callbackUrl = target.url;
    outcome = await callPlace(
      deps.callbacks.sender,
      target,
      place,
      deps.settings.placePolicy ?? DEFAULT_PLACE_POLICY,
    );
  } catch (err) {
    outcome = {
      kind: 'exhausted',
      attempts: 0,
      status: null,
      error: err instanceof Error ? err.message : String(err),
    };
  }

  failpoint('placement:after-place-answer');
  if (outcome.kind === 'refused') {
    const r = placeErrorRestriction(outcome.code, outcome.data);
    await inTransaction(database.db, async (tx) => {
      await recordSyncOutcome(tx, place.id, {
        delivered: false,
        attempts: outcome.attempts,
        status: outcome.status,
        error: `refused: ${outcome.code}`,
      });
      if (
        await transitionBet(tx, betId, 'hold_requested', 'place_error', {
          restrictions: [r],
          decidedAt: new Date(clock.now()),
        })
      ) {
        await releaseBonuses(tx, betId, new Date(clock.now())); // bonuses
      }
    });
    // the partner says the session is over: it ends (the sessions rule)
    if (SESSION_ENDING_CODES.has(outcome.code)) {
      await deps.sessions.expire(session.whiteLabelId, session.token).catch(() => {});
    }
    return finish(deps, betId);
  }
  if (outcome.kind === 'exhausted') {
    // the cause travels with the bet (its restriction, the /bet/decline) and is logged where it happens
    const r = restriction('internal_error', {
      code: 'place_retry_limit_reached',
      attempts: outcome.attempts,
      last_status: outcome.status,
      last_error: outcome.error,
    });
    deps.logger.warn(
      {
        betId,
        whiteLabelId: session.whiteLabelId,
        url: callbackUrl ? `${callbackUrl.replace(/\/+$/, '')}${CALLBACK_PATHS.place}` : undefined,
        attempts: outcome.attempts,
        lastStatus: outcome.status,
        lastError: outcome.error,
      },
      'bet force-declined: the partner /bet/place could not be reached',
    );
    await inTransaction(database.db, async (tx) => {
      await recordSyncOutcome(tx, place.id, {
        delivered: false,
        attempts: outcome.attempts,
        status: outcome.status,
        error: outcome.error,
      });
      if (
        await transitionBet(tx, betId, 'hold_requested', 'force_declined', {
          restrictions: [r],
          decidedAt: new Date(clock.now()),
        })
      ) {
        await releaseBonuses(tx, betId, new Date(clock.now())); // bonuses
        // a timed-out place may have held money: release it (D9)
        await enqueueCallbacks(tx, [
          {
            whiteLabelId: session.whiteLabelId,
            betId,
            path: CALLBACK_PATHS.decline,
            body: declineBody(bet, [r]),
            foreignParams: session.params,
          },
        ]);
      }
    });
    return finish(deps, betId);
  }

  // 3. processing: the risk facts, the bet delay (D34), then the one decision against the live book; the exposure
  // is read under its lock in the accept transaction, where the decision is taken again (D38)
  let riskState =
    deps.risk && riskSettings
      ? riskStateOf(deps.risk, riskSettings, {
          whiteLabelId: session.whiteLabelId,
          currency: req.currency,
          groupName: knownGroup ?? held.riskGroup ?? firstRequest?.group ?? 'default',
          exposure: new Map(),
        })
      : undefined;
  const delayS = await delayOf(deps, wl, req, events, riskState?.group.name ?? 'default', body, now);
  if (delayS > 0) await new Promise((r) => setTimeout(r, delayS * 1000));
  const boostMultiplier =
    bet.row.boost_multiplier !== null
      ? parseDecimal(bet.row.boost_multiplier, { field: 'boost_multiplier', maxDecimals: 6 })
      : undefined;
  const decideOn = (risk: RiskState | undefined) =>
    validatePlacement(req, {
      events: eventsOf(catalog, req),
      whiteLabel: wl,
      now: clock.now(),
      lastBetAt: lastBets,
      ...decisionSettings(deps.settings, req.currency),
      // bonuses: the multiplier the bet reserved with its boost at the hold
      ...(boostMultiplier ? { boostMultiplier } : {}),
      ...(risk ? { risk } : {}),
    });
  let verdict = decideOn(riskState);
  if (riskState && deps.risk && verdict.restrictions.length > 0) {
    // a bet declined anyway names its max_bet on the exposure as it is now (the accept transaction decides again
    // only the bets it would accept)
    riskState = {
      ...riskState,
      exposure: await exposureOfOutcomes(database.db, session.whiteLabelId, outcomesOf(req, events)),
    };
    verdict = decideOn(riskState);
  }
  // bonuses: the freebet, insurance and boost restrictions, on the accepted odds
  verdict.restrictions.push(
    ...(await checkBonuses(database.db, { bet, acceptedOdds: verdict.acceptedOdds, now: clock.now() })),
  );
  const decided = await deps.writes.decide({
    bet,
    place: { id: place.id, attempts: outcome.attempts, status: outcome.status },
    restrictions: verdict.restrictions,
    acceptedOdds: verdict.acceptedOdds,
    totalOdds: verdict.totalOdds,
    decidedAt: new Date(clock.now()),
    ...(riskState
      ? {
          risk: {
            whiteLabelId: session.whiteLabelId,
            eurRate: riskState.eurRate,
            outcomes: verdict.legs.map((l) => l.outcome),
            decide: (exposure) => decideOn({ ...riskState, exposure }),
          },
        }
      : {}),
  });
  failpoint('placement:after-decision-commit');
  // the risk engine: an accepted bet moved its outcomes' exposure (odds shading, D39)
  if (decided?.row.state === 'accepted') deps.risk?.shader?.kick(decided.selections);
  return finish(deps, betId, decided);
}

/** A unique constraint refused the insert (Postgres SQLSTATE 23505). */
function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

function clientDelayOf(body: Pick<PlaceBetRequest, 'client_created_at'>, receivedAtMs: number): number {
  const created = body.client_created_at ? Date.parse(body.client_created_at) : Number.NaN;
  return Number.isFinite(created) ? clientAppliedDelay(created, receivedAtMs) : 0;
}

/** The outcomes a bet selects, in the phase of their events now (D37). */
export function outcomesOf(
  req: Pick<PlacementRequest, 'selections'>,
  events: ReadonlyMap<string, SportEvent | undefined>,
): OutcomeKey[] {
  return req.selections.map((s) => ({
    sport_event_id: s.sport_event_id,
    market_id: s.market_id,
    odd_id: s.odd_id,
    phase: phaseOf(events.get(s.sport_event_id)),
  }));
}

/**
 * The bet delay (D34): with the risk engine the largest configured level (white label live delay, sport event,
 * market type, risk group), raised while the feed is unstable; without it the white label's live delay alone.
 * The client's delay is deducted either way (spec 03 table).
 */
export async function delayOf(
  deps: PlacementDeps,
  wl: WhiteLabel,
  req: PlacementRequest,
  events: ReadonlyMap<string, SportEvent | undefined>,
  group: string,
  body: Pick<PlaceBetRequest, 'client_created_at'>,
  now: number,
): Promise<number> {
  const client = clientDelayOf(body, now);
  if (!deps.risk)
    return wl.betDelayS > 0 && hasLiveSelection(req, events) ? remainingBetDelay(wl.betDelayS, client) : 0;
  const settings = await deps.risk.book.get();
  return betDelayFor(settings, deps.risk.config, {
    legs: req.selections.map((s) => {
      const event = events.get(s.sport_event_id);
      return {
        sportEventId: s.sport_event_id,
        marketTypeId: String(event?.markets[s.market_id]?.type_id ?? ''),
        phase: phaseOf(event),
        eventUpdatedAt: event ? Date.parse(event.updated_at) : 0,
      };
    }),
    group,
    whiteLabelLiveDelayS: wl.betDelayS,
    clientAppliedS: client,
    now,
  });
}

/** Wakes the dispatcher and tells the player's stream; `known` spares a read when the caller has the bet. */
async function finish(deps: PlacementDeps, betId: string, known?: Bet) {
  deps.callbacks.dispatcher.kick();
  const bet = known ?? ((await loadBets(deps.database.db, [betId]))[0] as Bet);
  deps.metrics?.betDecided({
    whiteLabelId: bet.row.white_label_id,
    state: bet.row.state,
    createdAt: new Date(bet.row.created_at),
    decidedAt: bet.row.decided_at ? new Date(bet.row.decided_at) : null,
  });
  const view = toBetView(bet);
  deps.betEvents.emit({ whiteLabelId: bet.row.white_label_id, playerId: bet.row.player_id, bet: view });
  return view;
}
