import { type MarketPhase, platformBetDelay } from '@bookie/core';
import type { RiskConfig } from '../../platform/config.js';
import type { RiskSettingsSnapshot } from './risk-book.js';

/** A leg as the delay reads it. */
export interface DelayLeg {
  sportEventId: string;
  marketTypeId: string;
  phase: MarketPhase;
  /** When the leg's sport event last changed in the feed (unix ms). */
  eventUpdatedAt: number;
}

/**
 * The delay the platform applies to a bet now (D34): the largest of the white label's live delay (live legs only),
 * the configured sport event, market type and risk group levels of each leg's phase, raised by
 * `DELAY_INSTABILITY_EXTRA_S` while a leg's event changed within `DELAY_INSTABILITY_WINDOW_S` (bet stop, status and
 * odds changes all update the event), minus the client's delay (spec 03 table).
 */
export function betDelayFor(
  settings: RiskSettingsSnapshot,
  config: Pick<RiskConfig, 'instabilityWindowS' | 'instabilityExtraS'>,
  input: {
    legs: readonly DelayLeg[];
    group: string;
    whiteLabelLiveDelayS: number;
    clientAppliedS: number;
    now: number;
  },
): number {
  const levels: number[] = [];
  let unstable = false;
  for (const leg of input.legs) {
    if (leg.phase === 'live') levels.push(input.whiteLabelLiveDelayS);
    for (const d of settings.delays) {
      if (d.phase !== leg.phase) continue;
      const applies =
        (d.level === 'sport_event' && d.key === leg.sportEventId) ||
        (d.level === 'market_type' && d.key === leg.marketTypeId) ||
        (d.level === 'risk_group' && d.key === input.group);
      if (applies) levels.push(Number(d.seconds));
    }
    if (input.now - leg.eventUpdatedAt < config.instabilityWindowS * 1000) unstable = true;
  }
  const configured = Math.max(0, ...levels);
  if (configured === 0) return 0; // no delay configured: instability alone adds none
  return platformBetDelay({
    levels,
    clientAppliedS: input.clientAppliedS,
    unstable,
    instabilityExtraS: config.instabilityExtraS,
  });
}
