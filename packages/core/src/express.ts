/**
 * The express bet (accumulator; the callback contract, "Bet types"): at least two selections, each on its own sport
 * event, paying the product of the selections' odds. A system is a set of expresses, so its combinations follow the
 * same rule.
 *
 * @packageDocumentation
 */

/**
 * The sport events that more than one selection of an express (or a system) is on, in the order they repeat; an
 * express's selections must each be on a distinct sport event (`selections_on_same_sport_event`).
 */
export function repeatedSportEvents(selections: readonly { sport_event_id: string }[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const s of selections) {
    if (seen.has(s.sport_event_id)) repeated.add(s.sport_event_id);
    seen.add(s.sport_event_id);
  }
  return [...repeated];
}
