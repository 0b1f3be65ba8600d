/**
 * The rule for accepting bets without managed trading (the feed contract, "Rule for accepting bets"): a bet on an outcome is
 * allowed only if the fixture status is 0 or 1, the market status is 0, the odd status is 0 and `is_active` is true,
 * and bet stop is off.
 *
 * @packageDocumentation
 */
import { type Restriction, restriction, type SelectionRef } from './restrictions.js';
import { FIXTURE_STATUS, MARKET_STATUS, ODD_STATUS } from './statuses.js';

/** The part of a feed odd the acceptance rule reads (the feed contract, "Odd"). */
export interface AcceptanceOdd {
  /** Odds, decimal string with 12 decimals (the feed contract). Not read by the rule; carried for callers. */
  value: string;
  /** Odd status code (the feed contract, "Odd status"); bets need 0. */
  status: number;
  /** Whether the odd is offered; bets need true. */
  is_active: boolean;
}

/** The part of a feed market the acceptance rule reads (the feed contract, "Market"). */
export interface AcceptanceMarket {
  /** Market status code (the feed contract, "Market status"); bets need 0. */
  status: number;
  /** Trading marked the market's odds as known to be wrong; bets are declined `market_defective`. */
  is_defective?: boolean;
  /** Odds keyed by odd (outcome) id. */
  odds: Record<string, AcceptanceOdd>;
}

/**
 * A minimal structural sport event (the feed contract, "Sport event snapshot"): any snapshot of the feed fits it.
 */
export interface AcceptanceSportEvent {
  /** Sport event id. */
  id: string;
  /** True while bets on the event are suspended (the feed contract, "bet_stop"). */
  bet_stop: boolean;
  /** The fixture; only its status is read (the feed contract, "Fixture status"; bets need 0 or 1). */
  fixture: { status: number };
  /** Markets keyed by market id. */
  markets: Record<string, AcceptanceMarket>;
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Checks one selection against the acceptance rule (the feed contract, "Rule for accepting bets") and returns EVERY failing
 * restriction, in this order: `sport_event_existence` (then nothing else can be checked), `sport_event_status`,
 * `sport_event_bet_stop`, `market_existence` or `market_status`, `market_defective`, `odd_existence` or `odd_status`. An empty array
 * means the bet is allowed. Contexts follow the MTS and advisory contract's table.
 *
 * @param event - the current snapshot of the sport event, or `undefined` when it is unknown.
 * @param selection - the sport event, market and odd ids the bet selects.
 */
export function checkAcceptance(
  event: AcceptanceSportEvent | undefined,
  selection: SelectionRef,
): Restriction[] {
  const { sport_event_id, market_id, odd_id } = selection;
  if (!event) return [restriction('sport_event_existence', { sport_event_id })];
  const out: Restriction[] = [];
  const fixtureStatus = event.fixture.status;
  if (fixtureStatus !== FIXTURE_STATUS.NOT_STARTED && fixtureStatus !== FIXTURE_STATUS.LIVE) {
    out.push(restriction('sport_event_status', { sport_event_id, status: fixtureStatus }));
  }
  if (event.bet_stop) out.push(restriction('sport_event_bet_stop', { sport_event_id }));
  const market = own(event.markets, market_id);
  if (!market) {
    out.push(restriction('market_existence', { sport_event_id, market_id }));
    return out;
  }
  if (market.status !== MARKET_STATUS.ACTIVE) {
    out.push(restriction('market_status', { sport_event_id, market_id, status: market.status }));
  }
  if (market.is_defective === true) out.push(restriction('market_defective', { sport_event_id, market_id }));
  const odd = own(market.odds, odd_id);
  if (!odd) {
    out.push(restriction('odd_existence', { sport_event_id, market_id, odd_id }));
    return out;
  }
  if (odd.status !== ODD_STATUS.NOT_RESULTED || odd.is_active !== true) {
    out.push(
      restriction('odd_status', {
        sport_event_id,
        market_id,
        odd_id,
        status: odd.status,
        is_active: odd.is_active,
      }),
    );
  }
  return out;
}

/** True when the acceptance rule allows a bet on `selection` (the feed contract, "Rule for accepting bets"). */
export function isAcceptable(event: AcceptanceSportEvent | undefined, selection: SelectionRef): boolean {
  return checkAcceptance(event, selection).length === 0;
}

/**
 * Checks every selection of a bet (the feed contract, "Rule for accepting bets") and concatenates the failing restrictions.
 *
 * @param lookup - returns the current snapshot of a sport event by id, or `undefined` when unknown.
 */
export function checkAcceptanceAll(
  lookup: (sportEventId: string) => AcceptanceSportEvent | undefined,
  selections: readonly SelectionRef[],
): Restriction[] {
  return selections.flatMap((s) => checkAcceptance(lookup(s.sport_event_id), s));
}
