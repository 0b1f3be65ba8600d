import type { SelectionNames, SportEvent } from '@bookie/contracts';

/**
 * Fills a feed template (the feed contract: `{$competitor1}` from the competitor at that template position,
 * `{total}` from the market's specifier, `{-hcp}` the specifier negated); a placeholder without a value stays as it is.
 */
export function fillTemplate(
  template: string,
  competitors: Record<string, string>,
  specifiers: Record<string, string>,
): string {
  return template.replace(/\{(-?)(\$?)(\w+)\}/g, (m, minus: string, dollar: string, name: string) => {
    if (dollar) {
      const pos = /^competitor(\d+)$/.exec(name);
      return pos ? (competitors[pos[1]!] ?? m) : m;
    }
    const v = specifiers[name];
    if (v === undefined) return m;
    if (!minus) return v;
    return v.startsWith('-') ? v.slice(1) : v === '0' ? v : `-${v}`;
  });
}

/**
 * What a selection is called at placement: the event, tournament, market and outcome names filled from the feed's
 * templates, and the templates with their values (so the frame can name it in the player's language). Stored with
 * the selection: the history keeps it after the event has left the book.
 */
export function selectionNames(event: SportEvent, marketId: string, oddId: string): SelectionNames {
  const competitors: Record<string, string> = {};
  for (const c of Object.values(event.fixture.competitors)) competitors[String(c.template_position)] = c.name;
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
