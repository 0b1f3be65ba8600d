import type { SportEvent } from '@bookie/contracts';

/** Fixture statuses the frame lists (spec 02 "Fixture status", Visible: yes): not started, live, suspended. */
export const FRAME_VISIBLE_STATUSES: ReadonlySet<number> = new Set([0, 1, 2]);
/** Market status suspended (spec 02 "Market status": may return to active; visible, odds hidden). */
const MARKET_SUSPENDED = 1;

/**
 * A sport event as the frame shows it to players (spec 02 "Market status"): a suspended market is listed with its
 * odds hidden (no odds); every other market as in the feed. The replica's snapshot is not changed.
 */
export function frameEventView(event: SportEvent): SportEvent {
  let markets: SportEvent['markets'] | undefined;
  for (const [id, m] of Object.entries(event.markets)) {
    if (m.status !== MARKET_SUSPENDED) continue;
    markets ??= { ...event.markets };
    markets[id] = { ...m, odds: {} };
  }
  return markets ? { ...event, markets } : event;
}
