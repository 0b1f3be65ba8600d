/**
 * Bet delay (the MTS and advisory contract, "Bet delay (MTS)"): the platform delays acceptance by its configured delay minus the delay the
 * client already applied; delays do not add up. Times are injected (no clock in core).
 *
 * @packageDocumentation
 */
import { validationError } from './errors.js';

function assertSeconds(value: number, field: string): void {
  if (!Number.isFinite(value) || value < 0)
    throw validationError(field, 'must be a non-negative number of seconds');
}

/**
 * Remaining platform delay = max(0, configured platform delay − delay already applied by the client)
 * (the MTS and advisory contract, "Bet delay"): 0/9 → 9, 6/9 → 3, 9/9 → 0, 12/9 → 0.
 *
 * @param configuredSeconds - the platform delay configured for the bet, seconds ≥ 0.
 * @param clientAppliedSeconds - delay the client already applied, seconds ≥ 0.
 * @returns seconds to wait, ≥ 0.
 * @throws DomainError `validation_error` naming `configured_delay` or `client_delay` for a negative or non-finite
 * value.
 */
export function remainingBetDelay(configuredSeconds: number, clientAppliedSeconds: number): number {
  assertSeconds(configuredSeconds, 'configured_delay');
  assertSeconds(clientAppliedSeconds, 'client_delay');
  return Math.max(0, configuredSeconds - clientAppliedSeconds);
}

/**
 * The platform delay configured for a bet (the MTS and advisory contract: delays are configurable per match, per market and per user
 * group, and may be raised dynamically): the largest of the levels that apply, 0 when none. Delays do not add up.
 *
 * @param levels - delays in seconds; `undefined` for a level without configuration.
 * @throws DomainError `validation_error` (field `configured_delay`) for a negative or non-finite level.
 */
export function configuredBetDelay(...levels: readonly (number | undefined)[]): number {
  let out = 0;
  for (const l of levels) {
    if (l === undefined) continue;
    assertSeconds(l, 'configured_delay');
    out = Math.max(out, l);
  }
  return out;
}

/**
 * The delay the client already applied, from the client's original bet creation time and the time the platform
 * received the bet (the MTS and advisory contract: "the platform uses the original client bet creation timestamp"). Both in unix ms;
 * a creation time in the future (clock skew) counts as 0.
 *
 * @returns seconds ≥ 0.
 */
export function clientAppliedDelay(createdAtMs: number, receivedAtMs: number): number {
  if (!Number.isFinite(createdAtMs)) throw validationError('created_at', 'must be a valid time');
  if (!Number.isFinite(receivedAtMs)) throw validationError('received_at', 'must be a valid time');
  return Math.max(0, receivedAtMs - createdAtMs) / 1000;
}

/** Input of {@link platformBetDelay} (the partner-reported bets rule). */
export interface PlatformBetDelayInput {
  /** Delays configured for the bet's levels (sport event, market type, risk group, white label), seconds. */
  levels: readonly (number | undefined)[];
  /** Delay the client already applied, seconds (see {@link clientAppliedDelay}). */
  clientAppliedS: number;
  /** True while the feed of one of the bet's events is unstable (the partner-reported bets rule: a bet stop, status or odds change lately). */
  unstable: boolean;
  /** Seconds added to the configured delay while unstable (`DELAY_INSTABILITY_EXTRA_S`). */
  instabilityExtraS: number;
}

/**
 * The delay the platform applies to a bet (the partner-reported bets rule, the MTS and advisory contract, "Bet delay"): the largest configured level (delays
 * do not add up), raised by the instability extra while the feed is unstable, minus the client's delay, never below
 * 0. With 9 s configured: client 0 → 9, 6 → 3, 9 → 0, 12 → 0.
 *
 * @throws DomainError `validation_error` naming `configured_delay`, `client_delay` or `instability_extra` for a
 * negative or non-finite value.
 */
export function platformBetDelay(input: PlatformBetDelayInput): number {
  assertSeconds(input.instabilityExtraS, 'instability_extra');
  const configured = configuredBetDelay(...input.levels) + (input.unstable ? input.instabilityExtraS : 0);
  return remainingBetDelay(configured, input.clientAppliedS);
}
