import type {
  BetAcceptBody,
  BetBuilderOdd,
  BetDeclineBody,
  BetOdd,
  BetPlaceBody,
  BetSettleBody,
  BetUnsettleBody,
  CallbackCompetitor,
  CallbackRestriction,
  SportEvent,
} from '@bookie/contracts';
import {
  callbackBetTypeCode,
  format,
  formatMoney,
  formatOdds,
  mtsSystemSizes,
  parseDecimal,
  type Restriction,
} from '@bookie/core';
import { type Bet, type BetBuilder, type EventInfo, type SelectionRow, selectionCount } from './bet.js';

/** A body as enqueued: everything but `request_id`, which the outbox adds (D7). */
type WithoutRequestId<T> = Omit<T, 'request_id'>;

/** ISO 8601 with an explicit offset (`+00:00`), as spec 01 shows `bet_created_at` (D7 formats). */
export function isoWithOffset(d: Date): string {
  return d.toISOString().replace('Z', '+00:00');
}

/** A decimal string `parseDecimal` accepts with at most 12 decimals: no sign, no leading zero, ≤ 18 digits before the point. */
const PLAIN_DECIMAL = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,12})?$/;

/**
 * `v` with exactly 6 decimals when that needs no rounding (at most 6 decimals, or only zeros past the sixth: a numeric
 * column keeps the scale it was written with), by padding or cutting its text; undefined otherwise. The same string
 * `format(parseDecimal(v), 6)` gives, without a rational.
 */
export function sixDecimalsOf(v: string): string | undefined {
  if (!PLAIN_DECIMAL.test(v)) return undefined;
  const dot = v.indexOf('.');
  if (dot < 0) return `${v}.000000`;
  const decimals = v.length - dot - 1;
  if (decimals <= 6) return v + '000000'.slice(decimals);
  for (let i = dot + 7; i < v.length; i++) if (v.charCodeAt(i) !== 48) return undefined;
  return v.slice(0, dot + 7);
}

/** A numeric column (exact string) written with 6 decimals (D1). */
export function money6(v: string): string {
  return sixDecimalsOf(v) ?? formatMoney(parseDecimal(v, { field: 'amount', maxDecimals: 12 }));
}

/** An odds column written with 6 decimals (D1), rounded half-up. */
export function odds6(v: string): string {
  return sixDecimalsOf(v) ?? formatOdds(parseDecimal(v, { field: 'odds', maxDecimals: 12 }));
}

/** The current snapshot of a sport event, when known (settlement reads the replica). */
export type CurrentEvent = (sportEventId: string) => SportEvent | undefined;

function betOdd(s: SelectionRow, current?: CurrentEvent): BetOdd {
  const info = s.event_info as unknown as EventInfo;
  // the event as it is now, when known: its fixture status, last update and live/prematch state
  const now = current?.(s.sport_event_id);
  const state = now ? (now.fixture.status === 1 ? 'live' : 'prematch') : info.state;
  return {
    odd_id: s.odd_id,
    odd_ratio: odds6(s.odds),
    odd_status: s.status,
    match_id: s.sport_event_id,
    match_status: now ? now.fixture.status : s.match_status,
    market_id: s.market_id,
    odd_updated_at: isoWithOffset(new Date(now ? now.updated_at : s.odd_updated_at)),
    status_reason: s.status_reason,
    meta: {
      sport_event_info_provider_id: info.provider_id,
      sport_event_info_sport_id: info.sport_id,
      sport_event_info_tournament_id: info.tournament_id,
      sport_event_info_market_type: info.market_type,
      sport_event_info_state: state,
      sport_event_info_start_time: info.start_time,
      sport_event_info_competitors: info.competitors,
      sport_id: info.sport_id,
      tournament_id: info.tournament_id,
      market_type: info.market_type,
      provider_id: info.provider_id,
    },
  };
}

/**
 * A bet builder as callbacks carry it in `bet_bet_builder_odds` (D60): its combined odds and result as a selection's,
 * the model's probability, and its inner odds in the `bet_odds` element shape.
 */
export function betBuilderOdd(b: BetBuilder, current?: CurrentEvent): BetBuilderOdd {
  return {
    bet_builder_index: b.row.builder,
    match_id: b.row.sport_event_id,
    odd_ratio: odds6(b.row.odds),
    odd_status: b.row.status,
    status_reason: b.row.status_reason,
    probability: format(parseDecimal(b.row.probability, { field: 'probability', maxDecimals: 12 }), 12),
    inner_odds: b.legs.map((s) => betOdd(s, current)),
  };
}

/** Competitors of all selections (inner legs of builders included), each once, in selection order (spec 01). */
function competitors(bet: Bet): CallbackCompetitor[] {
  const seen = new Map<string, CallbackCompetitor>();
  for (const s of [...bet.selections, ...bet.builders.flatMap((b) => b.legs)]) {
    for (const c of (s.event_info as unknown as EventInfo).competitors)
      if (!seen.has(c.id)) seen.set(c.id, c);
  }
  return [...seen.values()];
}

/**
 * Body of `/bet/place` and `/bet/accept` (spec 01 "Which fields each callback carries"): the same fields; accept
 * carries the odds the bet was accepted at. `bet_system_sizes` follows spec 03's rule for every type: [1] for a
 * single, [n] for an express, the chosen sizes for a system.
 */
export function placeBody(bet: Bet): WithoutRequestId<BetPlaceBody> & WithoutRequestId<BetAcceptBody> {
  const r = bet.row;
  return {
    bet_id: r.partner_bet_id ?? r.id,
    bet_player_id: r.player_id,
    bet_type: callbackBetTypeCode(r.bet_type),
    bet_stake: money6(r.stake),
    bet_freebet_id: r.freebet_id ?? '',
    bet_insurance_id: r.insurance_id ?? '',
    bet_boost_id: r.boost_id ?? '',
    total_odds_value: odds6(r.total_odds),
    base_odds_value: odds6(r.base_odds),
    bet_odds: bet.selections.map((s) => betOdd(s)),
    bet_bet_builder_odds: bet.builders.map((b) => betBuilderOdd(b)),
    bet_system_sizes: mtsSystemSizes(r.bet_type, selectionCount(bet), r.system_sizes),
    bet_created_at: isoWithOffset(new Date(r.created_at)),
    competitors: competitors(bet),
  };
}

/**
 * Restrictions as callbacks carry them (spec 01 "Restriction": `max_bet` context is a JSON number; the spec 03 APIs
 * keep the decimal string). The number is written from the 6-decimal amount, whose digits it keeps exactly (JSON
 * numbers print the shortest round-trip form, exact up to 15 significant digits).
 */
export function callbackRestrictions(restrictions: readonly Restriction[]): CallbackRestriction[] {
  return restrictions.map((r) => {
    const context = r.context as Record<string, unknown>;
    if (typeof context.max_bet !== 'string') return r as unknown as CallbackRestriction;
    return { type: r.type, context: { ...context, max_bet: Number(context.max_bet) } };
  });
}

/** Body of `/bet/decline`: every failing restriction (spec 01). */
export function declineBody(
  bet: Bet,
  restrictions: readonly Restriction[],
): WithoutRequestId<BetDeclineBody> {
  return {
    bet_id: bet.row.partner_bet_id ?? bet.row.id,
    bet_player_id: bet.row.player_id,
    restrictions: callbackRestrictions(restrictions),
  };
}

/**
 * Body of `/bet/settle` (spec 01; D3, D12): the full current amount and the odds with their statuses. With
 * `current`, each selection carries its event's current match status, update time and live/prematch state.
 */
export function settleBody(
  bet: Bet,
  settlement: { settleAmount: string; settleType: 1 | 2 | 3; restrictions: readonly Restriction[] },
  current?: CurrentEvent,
): WithoutRequestId<BetSettleBody> {
  const r = bet.row;
  return {
    bet_id: r.partner_bet_id ?? r.id,
    bet_player_id: r.player_id,
    bet_boost_id: r.boost_id ?? '',
    total_odds_value: odds6(r.total_odds),
    base_odds_value: odds6(r.base_odds),
    bet_odds: bet.selections.map((s) => betOdd(s, current)),
    bet_bet_builder_odds: bet.builders.map((b) => betBuilderOdd(b, current)),
    settle_amount: money6(settlement.settleAmount),
    settle_type: settlement.settleType,
    restrictions: callbackRestrictions(settlement.restrictions),
  };
}

/** Body of `/bet/unsettle` (spec 01; D12): a full reversal of the previous settle. */
export function unsettleBody(bet: Bet, unsettleAmount: string): WithoutRequestId<BetUnsettleBody> {
  return {
    bet_id: bet.row.partner_bet_id ?? bet.row.id,
    bet_player_id: bet.row.player_id,
    unsettle_amount: money6(unsettleAmount),
  };
}
