import type { SportEvent } from '@bookie/contracts';
import { type OutcomeKey, phaseOf } from '@bookie/core';
import type { Catalog } from '../bets/index.js';
import type { PlacementRequest } from './validate-placement.js';

/** The catalogue's current snapshot of each sport event a bet selects (undefined: the event is unknown). */
export function eventsOf(
  catalog: Pick<Catalog, 'getEvent'>,
  req: Pick<PlacementRequest, 'selections'>,
): Map<string, SportEvent | undefined> {
  return new Map(req.selections.map((s) => [s.sport_event_id, catalog.getEvent(s.sport_event_id)]));
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
