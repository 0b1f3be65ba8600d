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
  readMtsType,
  roundHalfUp,
  validationError,
  ZERO,
} from '@bookie/core';
import type { EventInfo, NewBuilder, ReportedSelectionRow } from '../bets/index.js';
import { builderRows, eventInfo } from '../bets/index.js';
import {
  type Decision,
  decideBet,
  type PlacementRequest,
  parseBuilders,
  requestLegs,
} from '../decision/index.js';
import type { MtsDeps } from './deps.js';
import { assertDistinctForeignSelections, foreignOutcome } from './foreign-selection.js';
import { findReport } from './mts.repo.js';
import type { ReportWrite } from './report-writes.js';

/** What `POST /bets` answers: the JSON text (stored, so a repeat answers the same bytes). */
export interface ReportAnswer {
  text: string;
}

/**
 * Parses a reported bet (MTS or advisory) into the decision's request. The type is only read (a malformed one is
 * refused): whether it fits the selections — foreign ones count — is the decision's `bet_type`, so the risk
 * decision declines what advice advises against.
 *
 * @throws DomainError validation_error naming the field.
 */
export function parseReportedBet(
  body: Pick<MtsBetRequest, 'type' | 'stake' | 'selections' | 'foreign_selections' | 'bet_builders'> & {
    odds_strategy?: number;
  },
  currencies: readonly string[],
): PlacementRequest {
  const foreign = body.foreign_selections ?? [];
  assertDistinctForeignSelections(foreign);
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
    builders: parseBuilders(body.bet_builders, 'value'),
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
  if (!Number.isFinite(Date.parse(body.created_at)))
    throw validationError('created_at', 'must be an ISO 8601 date-time');
  if (!p.catalog.connected)
    throw new DomainError('unavailable', 'the book is not available; try again shortly');

  const receivedAt = p.clock.now();
  // the repeat check rides on the unique index of the insert: a repeat fails the write and is read then; it is
  // read before only when a bet delay is to be waited (a repeat waits none)
  let first: Promise<ReportAnswer | undefined> | undefined;
  const repeated: PromiseLike<boolean> = {
    // biome-ignore lint/suspicious/noThenProperty: a lazy thenable: the read starts when the decision awaits it
    then: (ok, fail) => {
      first ??= repeat();
      return first
        .then(
          (r) => r !== undefined,
          () => true,
        )
        .then(ok, fail);
    },
  };
  const decision = await decideBet(p, {
    mode: 'report',
    whiteLabel: wl,
    playerId: body.player_id,
    bet: req,
    ...(body.recommended_max_payout !== undefined
      ? {
          recommendedMaxPayout: {
            value: body.recommended_max_payout.value,
            field: 'recommended_max_payout.value',
          },
        }
      : {}),
    clientCreatedAt: body.created_at,
    receivedAt,
    wait: { maxS: deps.maxWaitS, sleep: deps.sleep },
    repeated,
  });
  const stored = first ? await first : undefined;
  if (stored) return stored;

  try {
    const text = await deps.writes.write(
      reportWrite({ whiteLabelId, body, request, req, decision, receivedAt, decidedAt: p.clock.now() }),
    );
    if (decision.restrictions.length === 0) {
      p.risk?.shader?.kick(requestLegs(req));
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

/**
 * The record of a reported bet as decided: the bet with its selections (foreign ones on their own outcomes, adding no
 * exposure), the restrictions, the legs and their odds, the recheck under the exposure lock, and the request kept
 * for repeats.
 */
function reportWrite(input: {
  whiteLabelId: string;
  body: MtsBetRequest;
  request: string;
  req: PlacementRequest;
  decision: Decision;
  receivedAt: number;
  decidedAt: number;
}): ReportWrite {
  const { body, req, decision } = input;
  const foreign = body.foreign_selections ?? [];
  return {
    bet: {
      id: randomUUID(),
      partnerBetId: body.bet_id,
      whiteLabelId: input.whiteLabelId,
      playerId: body.player_id,
      currency: req.currency,
      betType: req.betType,
      systemSizes: req.systemSizes,
      stake: formatMoney(req.stake ?? ZERO),
      oddsStrategy: req.oddsStrategy,
      totalOdds: formatFeedOddValue(decision.totalOdds),
      foreignParams: body.foreign_params ?? {},
      clientIp: body.client_ip ?? null,
      countryCode: body.country_code ?? null,
      createdAt: new Date(Date.parse(body.created_at)),
      decidedAt: new Date(input.decidedAt),
      selections: reportedSelections(body, req, decision, input.receivedAt),
      builders: newBuilders(req, decision, body.created_at),
    },
    restrictions: decision.restrictions,
    legs:
      foreign.length === 0
        ? decision.legs
        : [
            ...decision.legs,
            ...foreign.map((f, i) => ({
              outcome: foreignOutcome(f.id),
              marketTypeId: 'foreign',
              exposure: ZERO,
              unit: req.selections.length + (req.builders ?? []).length + i,
            })),
          ],
    legOdds:
      foreign.length === 0 && decision.acceptedBuilderOdds.length === 0
        ? decision.acceptedOdds
        : [
            ...decision.acceptedOdds,
            ...decision.acceptedBuilderOdds,
            ...(req.foreignSelections ?? []).map((f) => f.odds),
          ],
    ...(decision.recheck ? { risk: decision.recheck } : {}),
    request: input.request,
    ...(req.stake !== undefined
      ? { values: { stake: req.stake, totalOdds: roundHalfUp(decision.totalOdds, 12) } }
      : {}),
  };
}

/** Odds as a selection stores them (12 decimals), written once per value object (the feed's odds are parsed once). */
const oddsTexts = new WeakMap<Rational, string>();
function oddsText(odds: Rational): string {
  let text = oddsTexts.get(odds);
  if (text === undefined) {
    text = formatFeedOddValue(odds);
    oddsTexts.set(odds, text);
  }
  return text;
}

/**
 * The facts of a sport event's market a selection stores, and the snapshot's time, by snapshot (a snapshot is
 * replaced, never changed, when the feed moves): the bets on one snapshot share these objects, which nothing changes.
 */
const eventInfos = new WeakMap<SportEvent, { updatedAt: Date; markets: Map<string, EventInfo> }>();
function snapshotFacts(event: SportEvent) {
  let facts = eventInfos.get(event);
  if (facts === undefined) {
    facts = { updatedAt: new Date(event.updated_at), markets: new Map() };
    eventInfos.set(event, facts);
  }
  return facts;
}
function eventInfoOf(event: SportEvent, marketId: string): EventInfo {
  const { markets } = snapshotFacts(event);
  let info = markets.get(marketId);
  if (info === undefined) {
    info = eventInfo(event, marketId);
    markets.set(marketId, info);
  }
  return info;
}

/** The rows of a reported bet's builders, at the combined odds decided (an unknown event with placeholders). */
function newBuilders(req: PlacementRequest, decision: Decision, createdAt: string): NewBuilder[] {
  const builders = req.builders ?? [];
  if (builders.length === 0) return [];
  return builderRows({
    builders,
    events: decision.events,
    quotes: decision.builderQuotes,
    accepted: decision.acceptedBuilderOdds,
    margin: decision.builderSettings?.margin ?? ZERO,
    at: Date.parse(createdAt),
    unknownInfo: () => unknownEventInfo(createdAt) as unknown as Record<string, unknown>,
  });
}

/**
 * The rows of a reported bet's selections: platform ones with the odds they were accepted at and their sport event's
 * facts as decided on (an unknown one with placeholders), then the foreign ones, each on its own outcome.
 */
function reportedSelections(
  body: MtsBetRequest,
  req: PlacementRequest,
  decision: Pick<Decision, 'acceptedOdds' | 'events'>,
  receivedAt: number,
): ReportedSelectionRow[] {
  const foreign = body.foreign_selections ?? [];
  const { events } = decision;
  return [
    ...req.selections.map((s, i) => {
      const event = events.get(s.sport_event_id) as SportEvent | undefined;
      const known = event && Object.hasOwn(event.markets, s.market_id);
      const requestedOdds = formatFeedOddValue(s.odds);
      const accepted = decision.acceptedOdds[i] ?? s.odds;
      return {
        sportEventId: s.sport_event_id,
        marketId: s.market_id,
        oddId: s.odd_id,
        requestedOdds,
        odds: accepted === s.odds ? requestedOdds : oddsText(accepted),
        oddUpdatedAt: event ? snapshotFacts(event).updatedAt : new Date(receivedAt),
        matchStatus: event?.fixture.status ?? 0,
        eventInfo: (known
          ? eventInfoOf(event, s.market_id)
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
        // in the order jsonb keeps keys (shorter first), so the answer reads as the stored bet does
        foreign: {
          ...(f.sport !== undefined ? { sport: f.sport } : {}),
          ...(f.odd_name !== undefined ? { odd_name: f.odd_name } : {}),
          ...(f.market_name !== undefined ? { market_name: f.market_name } : {}),
          ...(f.sport_event_title !== undefined ? { sport_event_title: f.sport_event_title } : {}),
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
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
