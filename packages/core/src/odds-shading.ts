/**
 * Odds shading (the risk rule; docs/adr/0018-risk-engine.md): once an outcome's exposure passes a share of its
 * liability limit, its published odds are lowered linearly with the exposure used, by at most a share of
 * (odds − 1) at the limit, and restored as exposure falls. The base odds (what trading set) stay the input.
 *
 * @packageDocumentation
 */
import { compare, div, max, min, mul, ONE, type Rational, roundDown, sub, ZERO } from './decimal.js';

/** Settings of shading (the risk rule): `from` (default 0.5) and `maxShare` (default 0.2), fractions in [0, 1]. */
export interface ShadingSettings {
  /** The share of the limit past which shading starts (`RISK_SHADE_FROM`). */
  from: Rational;
  /** The share of (odds − 1) taken off at the limit (`RISK_SHADE_MAX`). */
  maxShare: Rational;
}

/**
 * The odds to publish for an outcome: base − (base − 1) × maxShare × clamp((exposure / limit − from) / (1 − from),
 * 0, 1), rounded down to 3 decimals, never above base and never below 1. Base odds are returned unchanged when there
 * is no limit, the exposure is at or below the threshold, or maxShare is 0.
 *
 * @param base - odds set by trading (≥ 1).
 * @param exposure - the outcome's exposure, EUR.
 * @param limit - its liability limit, EUR; undefined: no limit (no shading).
 */
export function shadedOdds(
  base: Rational,
  exposure: Rational,
  limit: Rational | undefined,
  settings: ShadingSettings,
): Rational {
  if (limit === undefined || !isPastShadeThreshold(exposure, limit, settings)) return base;
  const used = div(exposure, limit);
  const span = sub(ONE, settings.from);
  const progress = compare(span, ZERO) <= 0 ? ONE : min(ONE, div(sub(used, settings.from), span));
  const cut = mul(mul(sub(base, ONE), settings.maxShare), progress);
  const shaded = roundDown(sub(base, cut), 3);
  return compare(shaded, base) >= 0 ? base : max(ONE, shaded);
}

/**
 * Whether an outcome's exposure (EUR) is past the share `from` of its liability limit (EUR), where
 * {@link shadedOdds} starts lowering its odds; false without a limit (undefined or 0) or with shading off
 * (`maxShare` 0). Below it, no odds of that outcome need publishing.
 */
export function isPastShadeThreshold(
  exposure: Rational,
  limit: Rational | undefined,
  settings: ShadingSettings,
): boolean {
  if (limit === undefined || compare(limit, ZERO) <= 0 || compare(settings.maxShare, ZERO) <= 0) return false;
  return compare(div(exposure, limit), settings.from) > 0;
}
