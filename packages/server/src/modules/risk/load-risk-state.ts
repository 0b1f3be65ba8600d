import {
  BoundedMemo,
  compare,
  div,
  type OutcomeKey,
  outcomeKey,
  parseDecimal,
  type Rational,
  type RiskGroup,
  type RiskState,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { RiskDeps } from './deps.js';
import { type RiskFacts, readExposure } from './exposure.repo.js';
import { ensurePlayerRisk } from './player-risk.repo.js';
import { liabilityLimitOf, type RiskSettingsSnapshot } from './risk-book.js';

/** What {@link riskStateOfFacts} needs to know about the bet. */
export interface RiskStateInput {
  whiteLabelId: string;
  playerId: string;
  currency: string;
  outcomes: readonly OutcomeKey[];
  /** spec 03 VIP `recommended_max_payout` in the bet currency, when the request carried one. */
  recommendedMaxPayout?: Rational;
  /**
   * True records the player's first request (a placement, a reported bet, `GET /restrictions`: spec 03 VIP counts
   * the first calculation or placement); false only previews it (advice).
   */
  record: boolean;
}

/** EUR rates parsed once per text (every decision reads its currency's). */
const parsedRates = new BoundedMemo<Rational>(1000);

/** The EUR rate of a currency as a rational, or undefined. */
export function eurRateOf(deps: Pick<RiskDeps, 'eurRates'>, currency: string): Rational | undefined {
  const r = deps.eurRates[currency];
  if (!r) return undefined;
  return parsedRates.get(r) ?? parsedRates.keep(r, parseDecimal(r, { field: 'EUR_RATES', maxDecimals: 12 }));
}

/**
 * The group a player's first request puts them in (spec 03 VIP, D38): with a `recommended_max_payout` above what the
 * default group stands for, the group with the smallest max payout that reaches it, when its factor is larger than
 * the default's; otherwise `default`.
 */
export function groupForFirstRequest(
  settings: RiskSettingsSnapshot,
  recommendedEur: Rational | undefined,
): { group: string; source: 'default' | 'recommended' } {
  const def = settings.groups.get('default');
  if (!recommendedEur || !def) return { group: 'default', source: 'default' };
  const reaching = [...settings.groups.values()]
    .filter((g) => g.maxPayoutEur && compare(g.maxPayoutEur, recommendedEur) >= 0)
    .filter((g) => compare(g.stakeFactor, def.stakeFactor) > 0)
    .sort(
      (a, b) =>
        compare(a.maxPayoutEur as Rational, b.maxPayoutEur as Rational) ||
        compare(b.stakeFactor, a.stakeFactor) ||
        a.name.localeCompare(b.name),
    );
  const pick = reaching[0];
  return pick ? { group: pick.name, source: 'recommended' } : { group: 'default', source: 'default' };
}

/**
 * The risk state of a bet (D37, D38) from its facts as read ({@link sendRiskFactsOfMany}): the exposure of its
 * outcomes, the limits and the player's group. On the player's first request (with `record`) the group is recorded,
 * raised by `recommended_max_payout` (spec 03 VIP); later values are ignored.
 */
export async function riskStateOfFacts(
  deps: RiskDeps,
  db: Executor,
  input: RiskStateInput,
  facts: RiskFacts,
): Promise<RiskState> {
  const settings = await deps.book.get();
  let groupName = facts.groupName;
  if (!groupName) {
    const first = firstRequestOf(deps, settings, input);
    groupName = first.group;
    if (input.record) {
      groupName = (
        await ensurePlayerRisk(db, {
          whiteLabelId: input.whiteLabelId,
          playerId: input.playerId,
          group: first.group,
          source: first.source,
        })
      ).group_name;
    }
  }
  return riskStateOf(deps, settings, { ...input, groupName, exposure: exposureMap(facts.exposure) });
}

/** The group a request would put a player in who has none yet ({@link groupForFirstRequest} in EUR). */
export function firstRequestOf(
  deps: Pick<RiskDeps, 'eurRates'>,
  settings: RiskSettingsSnapshot,
  input: Pick<RiskStateInput, 'currency' | 'recommendedMaxPayout'>,
): { group: string; source: 'default' | 'recommended' } {
  const rate = eurRateOf(deps, input.currency);
  const rec = input.recommendedMaxPayout && rate ? div(input.recommendedMaxPayout, rate) : undefined;
  return groupForFirstRequest(settings, rec);
}

/**
 * The risk facts of a bet from what the caller already holds (no I/O): the player's group and the exposure of its
 * outcomes (placement decides first on none: its accept transaction decides again on the locked exposure, D38).
 */
export function riskStateOf(
  deps: Pick<RiskDeps, 'eurRates'>,
  settings: RiskSettingsSnapshot,
  input: {
    whiteLabelId: string;
    currency: string;
    groupName: string;
    exposure: ReadonlyMap<string, Rational>;
  },
): RiskState {
  const group: RiskGroup = settings.groups.get(input.groupName) ?? {
    name: input.groupName,
    stakeFactor: parseDecimal('1', { field: 'stake_factor' }),
  };
  return {
    exposure: input.exposure,
    liabilityLimit: (marketTypeId, phase) =>
      liabilityLimitOf(settings, input.whiteLabelId, marketTypeId, phase),
    group,
    eurRate: eurRateOf(deps, input.currency),
  };
}

/** The stored exposure of a white label's outcomes by {@link outcomeKey} (EUR); an outcome without a row is absent. */
export async function exposureOfOutcomes(
  db: Executor,
  whiteLabelId: string,
  outcomes: readonly OutcomeKey[],
): Promise<Map<string, Rational>> {
  return exposureMap(await readExposure(db, whiteLabelId, outcomes));
}

/** Stored exposure rows (EUR, decimal strings) as exact amounts by {@link outcomeKey}. */
export function exposureMap(rows: ReadonlyArray<OutcomeKey & { amount: string }>): Map<string, Rational> {
  const out = new Map<string, Rational>();
  for (const r of rows) out.set(outcomeKey(r), exposureAmount(r.amount));
  return out;
}

const EXPOSURE_FIELD = { field: 'exposure', maxDecimals: 6 };

/** A stored exposure amount (EUR, a decimal string of at most 6 decimals) as an exact value. */
export function exposureAmount(amount: string): Rational {
  return parseDecimal(amount, EXPOSURE_FIELD);
}
