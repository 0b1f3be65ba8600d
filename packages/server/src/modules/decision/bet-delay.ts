import type { SportEvent } from '@bookie/contracts';
import { clientAppliedDelay, phaseOf, remainingBetDelay } from '@bookie/core';
import { betDelayFor } from '../risk/index.js';
import type { WhiteLabel } from '../tenants/index.js';
import type { DecisionDeps } from './deps.js';
import { hasLiveSelection, type PlacementRequest, requestLegs } from './validate-placement.js';

/** The delay the client already applied (s): from its creation time of the bet to `receivedAtMs`; 0 without one. */
function clientDelayOf(clientCreatedAt: string | undefined, receivedAtMs: number): number {
  const created = clientCreatedAt ? Date.parse(clientCreatedAt) : Number.NaN;
  return Number.isFinite(created) ? clientAppliedDelay(created, receivedAtMs) : 0;
}

/**
 * The bet delay (D34), seconds: with the risk engine the largest configured level (white label live delay, sport
 * event, market type, risk group), raised while the feed is unstable; without it the white label's live delay alone.
 * The client's delay is deducted either way (spec 03 table).
 */
export async function betDelayOf(
  deps: Pick<DecisionDeps, 'risk'>,
  input: {
    whiteLabel: WhiteLabel;
    bet: PlacementRequest;
    events: ReadonlyMap<string, SportEvent | undefined>;
    /** The player's risk group. */
    group: string;
    /** The client's creation time of the bet (ISO 8601), when it sent one. */
    clientCreatedAt: string | undefined;
    /** When the bet was received, unix ms. */
    receivedAt: number;
  },
): Promise<number> {
  const { whiteLabel: wl, bet, events } = input;
  const client = clientDelayOf(input.clientCreatedAt, input.receivedAt);
  if (!deps.risk)
    return wl.betDelayS > 0 && hasLiveSelection(bet, events) ? remainingBetDelay(wl.betDelayS, client) : 0;
  const settings = await deps.risk.book.get();
  // no delay configured for any level that could apply: none (instability alone adds none), without the legs' facts
  if (settings.delays.length === 0 && (wl.betDelayS === 0 || !hasLiveSelection(bet, events))) return 0;
  return betDelayFor(settings, deps.risk.config, {
    legs: requestLegs(bet).map((s) => {
      const event = events.get(s.sport_event_id);
      return {
        sportEventId: s.sport_event_id,
        marketTypeId: String(event?.markets[s.market_id]?.type_id ?? ''),
        phase: phaseOf(event),
        eventUpdatedAt: event ? Date.parse(event.updated_at) : 0,
      };
    }),
    group: input.group,
    whiteLabelLiveDelayS: wl.betDelayS,
    clientAppliedS: client,
    now: input.receivedAt,
  });
}
