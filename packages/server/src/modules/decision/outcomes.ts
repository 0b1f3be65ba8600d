import type { SportEvent } from '@bookie/contracts';
import { type OutcomeKey, phaseOf } from '@bookie/core';
import type { Catalog } from '../bets/index.js';
import { type PlacementRequest, requestLegs, requestSportEvents } from './validate-placement.js';

/** The catalogue's current snapshot of each sport event a bet selects (undefined: the event is unknown). */
export function eventsOf(
  catalog: Pick<Catalog, 'getEvent'>,
  req: Pick<PlacementRequest, 'selections' | 'builders'>,
): Map<string, SportEvent | undefined> {
  return new Map(requestSportEvents(req).map((id) => [id, catalog.getEvent(id)]));
}

/** The outcomes a bet selects (the inner legs of its builders included), in the phase of their events now (D37). */
export function outcomesOf(
  req: Pick<PlacementRequest, 'selections' | 'builders'>,
  events: ReadonlyMap<string, SportEvent | undefined>,
): OutcomeKey[] {
  return requestLegs(req).map((s) => ({
    sport_event_id: s.sport_event_id,
    market_id: s.market_id,
    odd_id: s.odd_id,
    phase: phaseOf(events.get(s.sport_event_id)),
  }));
}
