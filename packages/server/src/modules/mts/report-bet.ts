import { randomUUID } from 'node:crypto';
import type { MtsBetRequest, SportEvent } from '@bookie/contracts';
import {
  DomainError,
  formatFeedOddValue,
  formatMoney,
  type OddsStrategy,
  parseOdds,
  parseStake,
  type Rational,
  type RiskState,
  readMtsType,
  validationError,
  ZERO,
} from '@bookie/core';
import type { EventInfo } from '../bets/bet.js';
import { lastBetTimes } from '../bets/bets.repo.js';
import type { ReportedSelectionRow } from '../bets/index.js';
import { delayOf, eventInfo, outcomesOf } from '../bets/place-bet.js';
import { decisionSettings, type PlacementRequest, validatePlacement } from '../bets/validate-placement.js';
import { loadRiskState } from '../risk/load-risk-state.js';
import type { MtsDeps } from './deps.js';
import { findReport } from './mts.repo.js';

/** What `POST /bets` answers: the JSON text (stored, so a repeat answers the same bytes). */
export interface ReportAnswer {
  text: string;
}

/** The outcome key of a foreign selection: kept apart from every platform outcome. */
export function foreignOutcome(id: string) {
  return { sport_event_id: `foreign:${id}`, market_id: 'foreign', odd_id: id, phase: 'prematch' as const };
}

/**
 * Parses a reported bet (MTS or advisory) into the decision's request. The type is only read (a malformed one is
 * refused): whether it fits the selections — foreign ones count — is the decision's `bet_type`, so the risk
 * decision declines what advice advises against.
 *
 * @throws DomainError validation_error naming the field.
 */
export function parseReportedBet(
  body: Pick<MtsBetRequest, 'type' | 'stake' | 'selections' | 'foreign_selections'> & {
    odds_strategy?: number;
  },
  currencies: readonly string[],
): PlacementRequest {
  const foreign = body.foreign_selections ?? [];
  const ids = new Set<string>();
  foreign.forEach((f, i) => {
    if (ids.has(f.id)) throw validationError(`foreign_selections[${i}].id`, `${f.id} is repeated`);
    ids.add(f.id);
  });
  const { betType, systemSizes, typeSizes } = readMtsType(body.type);
  if (!currencies.includes(body.stake.currency_code)) {
    throw validationError(
      'stake.currency_code',
      `the white label does not offer ${body.stake.currency_code}`,
    );
  }
  return {
    betType,
    systemSizes,
    typeSizes,
    stake: parseStake(body.stake.value, 'stake.value'),
    currency: body.stake.currency_code,
    oddsStrategy: (body.odds_strategy ?? 1) as OddsStrategy,
    selections: body.selections.map((s, i) => ({
      sport_event_id: s.sport_event_id,
      market_id: s.market_id,
      odd_id: s.odd_id,
      odds: parseOdds(s.value, `selections[${i}].value`, { maxDecimals: 12 }),
    })),
    foreignSelections: foreign.map((f, i) => ({
      id: f.id,
      odds: parseOdds(f.value, `foreign_selections[${i}].value`, { maxDecimals: 12 }),
    })),
  };
}

function unknownEventInfo(createdAt: string): EventInfo {
  return {
    provider_id: 'bookie',
    sport_id: '',
    tournament_id: '',
    market_type: '',
    state: 'prematch',
    start_time: createdAt,
    competitors: [],
  };
}

/**
 * The partner reports a bet it is taking (risk management mode, `POST /bets`): Bookie validates integrity and risk
 * with the one decision; when that accepts, it waits out the remaining bet delay (the configured delay minus the
 * time since the client created the bet, at most `MTS_MAX_WAIT_S`), decides again on the odds of that moment and,
 * in one transaction, decides a third time on the exposure under its lock, records the bet with its exposure and
 * the answer. Accepted and declined bets are both recorded and answered `{bet, restrictions}`. A repeat of the
 * `bet_id` with the same body answers the stored answer byte for byte. No callback is sent for the placement: the
 * partner holds the money.
 *
 * @throws DomainError validation_error naming the field; idempotency_conflict (409) for another body under a used
 * `bet_id`; unavailable when the book is not connected.
 */
export async function reportBet(
  deps: MtsDeps,
  whiteLabelId: string,
  body: MtsBetRequest,
): Promise<ReportAnswer> {
  const p = deps.placement;
  const db = p.database.db;
  const request = JSON.stringify(body);
  const repeat = async () => {
    const stored = await findReport(db, whiteLabelId, body.bet_id);
    if (!stored) return undefined;
    if (stored.request !== request) {
      throw new DomainError(
        'idempotency_conflict',
        `bet_id: ${body.bet_id} was already reported with another body`,
        {
          field: 'bet_id',
        },
      );
    }
    return { text: stored.answer };
  };
  const wl = await p.whiteLabels.get(whiteLabelId);
  const req = parseReportedBet(body, wl.currencies);
  const createdAtMs = Date.parse(body.created_at);
  if (!Number.isFinite(createdAtMs)) throw validationError('created_at', 'must be an ISO 8601 date-time');
  if (!p.catalog.connected)
    throw new DomainError('unavailable', 'the book is not available; try again shortly');

  const eventsNow = () =>
    new Map(req.selections.map((s) => [s.sport_event_id, p.catalog.getEvent(s.sport_event_id)]));
  const receivedAt = p.clock.now();
  let events = eventsNow();
  // a repeat, the risk facts and the bet times are read at once (recording a repeat's first request is harmless)
  const [first, riskState, [lastBets]] = await Promise.all([
    repeat(),
    p.risk
      ? loadRiskState(p.risk, db, {
          whiteLabelId,
          playerId: body.player_id,
          currency: req.currency,
          outcomes: outcomesOf(req, events),
          ...(body.recommended_max_payout !== undefined
            ? {
                recommendedMaxPayout: parseStake(
                  body.recommended_max_payout.value,
                  'recommended_max_payout.value',
                ),
              }
            : {}),
          record: true,
        })
      : undefined,
    lastBetTimes(db, [
      { whiteLabelId, playerId: body.player_id, sportEventIds: req.selections.map((s) => s.sport_event_id) },
    ]),
  ]);
  if (first) return first;
  const decideOn = (risk: RiskState | undefined) =>
    validatePlacement(req, {
      events,
      whiteLabel: wl,
      now: p.clock.now(),
      lastBetAt: lastBets ?? new Map(),
      ...decisionSettings(p.settings, req.currency),
      ...(risk ? { risk } : {}),
    });
  let verdict = decideOn(riskState);
  if (verdict.restrictions.length === 0) {
    const delayS = await delayOf(
      p,
      wl,
      req,
      events,
      riskState?.group.name ?? 'default',
      { client_created_at: body.created_at },
      receivedAt,
    );
    const waitS = Math.min(delayS, deps.maxWaitS);
    if (waitS > 0) {
      await deps.sleep(waitS * 1000);
      events = eventsNow();
      verdict = decideOn(riskState);
    }
  }

  const betId = randomUUID();
  const foreign = body.foreign_selections ?? [];
  const selections: ReportedSelectionRow[] = [
    ...req.selections.map((s, i) => {
      const event = events.get(s.sport_event_id) as SportEvent | undefined;
      const known = event && Object.hasOwn(event.markets, s.market_id);
      return {
        sportEventId: s.sport_event_id,
        marketId: s.market_id,
        oddId: s.odd_id,
        requestedOdds: formatFeedOddValue(s.odds),
        odds: formatFeedOddValue(verdict.acceptedOdds[i] ?? s.odds),
        oddUpdatedAt: new Date(event ? event.updated_at : receivedAt),
        matchStatus: event?.fixture.status ?? 0,
        eventInfo: (known
          ? eventInfo(event, s.market_id)
          : unknownEventInfo(body.created_at)) as unknown as Record<string, unknown>,
        foreignId: null,
      };
    }),
    ...foreign.map((f, i) => {
      const odds = formatFeedOddValue((req.foreignSelections ?? [])[i]?.odds ?? ZERO);
      const info: EventInfo & { foreign: Record<string, unknown> } = {
        ...unknownEventInfo(body.created_at),
        provider_id: 'partner',
        sport_id: f.sport ?? '',
        market_type: 'foreign',
        foreign: {
          ...(f.sport_event_title !== undefined ? { sport_event_title: f.sport_event_title } : {}),
          ...(f.sport !== undefined ? { sport: f.sport } : {}),
          ...(f.market_name !== undefined ? { market_name: f.market_name } : {}),
          ...(f.odd_name !== undefined ? { odd_name: f.odd_name } : {}),
        },
      };
      const o = foreignOutcome(f.id);
      return {
        sportEventId: o.sport_event_id,
        marketId: o.market_id,
        oddId: o.odd_id,
        requestedOdds: odds,
        odds,
        oddUpdatedAt: new Date(receivedAt),
        matchStatus: 0,
        eventInfo: info as unknown as Record<string, unknown>,
        foreignId: f.id,
      };
    }),
  ];
  const stake = formatMoney(req.stake ?? ZERO);
  const decidedAt = new Date(p.clock.now());
  try {
    const text = await deps.writes.write({
      bet: {
        id: betId,
        partnerBetId: body.bet_id,
        whiteLabelId,
        playerId: body.player_id,
        currency: req.currency,
        betType: req.betType,
        systemSizes: req.systemSizes,
        stake,
        oddsStrategy: req.oddsStrategy,
        totalOdds: formatFeedOddValue(verdict.totalOdds),
        foreignParams: body.foreign_params ?? {},
        clientIp: body.client_ip ?? null,
        countryCode: body.country_code ?? null,
        createdAt: new Date(createdAtMs),
        decidedAt,
        selections,
      },
      restrictions: verdict.restrictions,
      legs: [
        ...verdict.legs,
        ...foreign.map((f) => ({ outcome: foreignOutcome(f.id), marketTypeId: 'foreign', exposure: ZERO })),
      ],
      legOdds: [...verdict.acceptedOdds, ...(req.foreignSelections ?? []).map((f) => f.odds)],
      ...(riskState
        ? {
            risk: {
              whiteLabelId,
              eurRate: riskState.eurRate,
              outcomes: verdict.legs.map((l) => l.outcome),
              decide: (exposure: ReadonlyMap<string, Rational>) => decideOn({ ...riskState, exposure }),
            },
          }
        : {}),
      request,
    });
    if (verdict.restrictions.length === 0) {
      p.risk?.shader?.kick(
        req.selections.map((s) => ({
          sport_event_id: s.sport_event_id,
          market_id: s.market_id,
          odd_id: s.odd_id,
        })),
      );
    }
    return { text };
  } catch (err) {
    // the same bet id reported at the same moment: the other request recorded it
    if (isUniqueViolation(err)) {
      const stored = await repeat();
      if (stored) return stored;
    }
    throw err;
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
