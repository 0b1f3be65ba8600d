import type { SelectionNames, SportEvent } from '@bookie/contracts';
import { competitorsByPosition, fillTemplate } from '@bookie/core';

/**
 * What a selection is called at placement: the event, tournament, market and outcome names filled from the feed's
 * templates, and the templates with their values (so the frame can name it in the player's language). Stored with
 * the selection: the history keeps it after the event has left the book.
 */
export function selectionNames(event: SportEvent, marketId: string, oddId: string): SelectionNames {
  const competitors = competitorsByPosition(event.fixture.competitors);
  const market = event.markets[marketId];
  const specifiers = market?.specifiers ?? {};
  const marketTemplate = market?.template ?? '';
  const outcomeTemplate = market?.odds[oddId]?.template ?? '';
  return {
    event: fillTemplate(event.fixture.template, competitors, {}),
    tournament: event.fixture.tournament.name,
    sport_id: event.fixture.sport_id,
    start_time: event.fixture.start_time,
    market: fillTemplate(marketTemplate, competitors, specifiers),
    outcome: fillTemplate(outcomeTemplate, competitors, specifiers),
    market_template: marketTemplate,
    outcome_template: outcomeTemplate,
    specifiers: { ...specifiers },
    competitors,
  };
}
