import type { SportEvent } from '@bookie/contracts';
import {
  type BuilderSettings,
  parseDecimal,
  type Rational,
  type RiskState,
  withinExposureBounds,
} from '@bookie/core';
// bonuses: a frame bet's freebet, insurance and boost are checked with the decision
import { checkBonuses } from '../bonuses/index.js';
import type { RiskRecheck } from '../risk/index.js';
import { exposureOfOutcomes } from '../risk/index.js';
import { betDelayOf } from './bet-delay.js';
import type {
  Decision,
  DecisionRequest,
  PlaceRequest,
  ReportRequest,
  RestrictionsRequest,
} from './decision-request.js';
import type { DecisionDeps } from './deps.js';
import { gatherFacts } from './facts.js';
import { eventsOf, outcomesOf } from './outcomes.js';
import { decisionSettings, type PlacementVerdict, validatePlacement } from './validate-placement.js';

/**
 * The decision on the catalogue as it is now, with the given risk facts (the facts otherwise fixed), with the
 * snapshots decided on and the catalogue's feed version they were read at.
 */
type Decide = (risk: RiskState | undefined) => PlacementVerdict & {
  events: ReadonlyMap<string, SportEvent | undefined>;
  catalogVersion: bigint | undefined;
};

/**
 * The one decision for every way a bet arrives (the frame's placement, MTS `POST /bets`, advisory and `GET
 * /restrictions`): gathers the bet's facts once — the risk state (the player's group, limits, exposure), the
 * player's last bets, the bet delay — and takes core's decision ({@link validatePlacement}) on the white label's
 * rules and the catalogue as it is at that moment: integrity, the odds strategy, the type rules, the limits from
 * exposure and the player's group, and for a frame bet its bonuses. What the mode changes is only how the facts are
 * gathered and what is done with the bet delay (see {@link DecisionRequest}); it records nothing but the player's
 * first request (`report`, `restrictions`). The caller records the bet, deciding again under the exposure lock with
 * {@link Decision.recheck}.
 */
export async function decideBet(deps: DecisionDeps, request: DecisionRequest): Promise<Decision> {
  const facts = await gatherFacts(deps, request);
  const decide = decider(deps, request, facts.lastBets, facts.builder);
  const decision = await (() => {
    switch (request.mode) {
      case 'place':
        return decidePlacement(deps, request, facts.risk, decide);
      case 'report':
        return decideReport(deps, request, facts.risk, decide);
      case 'advise':
        return decisionOf(deps, request, facts.risk, decide, decide(facts.risk), 0);
      case 'restrictions':
        return decideRestrictions(deps, request, facts.risk, decide);
    }
  })();
  const out = decision as Decision;
  out.builderSettings = facts.builder;
  return out;
}

/** The decision with every fact but the risk state fixed; each call reads the catalogue at that moment. */
function decider(
  deps: DecisionDeps,
  request: DecisionRequest,
  lastBets: ReadonlyMap<string, Date>,
  builderSettings: BuilderSettings | undefined,
): Decide {
  // advice is given on the odds as they are: strategy 1
  const bet = request.mode === 'advise' ? { ...request.bet, oddsStrategy: 1 as const } : request.bet;
  const settings = decisionSettings(deps.settings, bet.currency);
  const boost = request.mode === 'place' ? request.held.row.boost_multiplier : null;
  // bonuses: the multiplier the bet reserved with its boost at the hold
  const boostMultiplier =
    boost !== null ? parseDecimal(boost, { field: 'boost_multiplier', maxDecimals: 6 }) : undefined;
  return (risk) => {
    const catalogVersion = deps.catalog.version;
    const events = eventsOf(deps.catalog, bet);
    // the verdict is the decision's own new object: what the caller reads with it is set on it, not copied
    const verdict = validatePlacement(bet, {
      events,
      whiteLabel: request.whiteLabel,
      now: deps.clock.now(),
      lastBetAt: lastBets,
      expressCap: settings.expressCap,
      oddsTolerance: settings.oddsTolerance,
      maxCombinations: settings.maxCombinations,
      boostMultiplier,
      risk,
      builderSettings,
    }) as ReturnType<Decide>;
    verdict.events = events;
    verdict.catalogVersion = catalogVersion;
    return verdict;
  };
}

/**
 * A frame bet (held on the wallet): waits the bet delay (D34), then decides. A bet declined anyway names its
 * `max_bet` on the exposure as it is now; one that would be accepted is decided again on the locked exposure when
 * it is written (D38). Its bonuses are checked on the accepted odds.
 */
async function decidePlacement(
  deps: DecisionDeps,
  request: PlaceRequest,
  facts: RiskState | undefined,
  decide: Decide,
): Promise<Omit<Decision, 'builderSettings'>> {
  const { bet, whiteLabel } = request;
  const delayS = await betDelayOf(deps, {
    whiteLabel,
    bet,
    events: eventsOf(deps.catalog, bet),
    group: facts?.group.name ?? 'default',
    clientCreatedAt: request.clientCreatedAt,
    receivedAt: request.receivedAt,
  });
  if (delayS > 0) await new Promise((r) => setTimeout(r, delayS * 1000));
  let risk = facts;
  let verdict = decide(risk);
  if (risk && verdict.restrictions.length > 0) {
    const outcomes = outcomesOf(bet, verdict.events);
    risk = { ...risk, exposure: await exposureOfOutcomes(deps.database.db, whiteLabel.id, outcomes) };
    verdict = decide(risk);
  }
  // bonuses: the freebet, insurance and boost restrictions, on the accepted odds
  verdict.restrictions.push(
    ...(await checkBonuses(deps.database.db, {
      bet: request.held,
      acceptedOdds: verdict.acceptedOdds,
      acceptedBuilderOdds: verdict.acceptedBuilderOdds,
      now: deps.clock.now(),
    })),
  );
  return decisionOf(deps, request, risk, decide, verdict, delayS);
}

/**
 * A reported bet: decides at once; when that accepts, waits what remains of the bet delay (at most the cap; not
 * for a repeated request) and decides again on the odds of that moment.
 */
async function decideReport(
  deps: DecisionDeps,
  request: ReportRequest,
  risk: RiskState | undefined,
  decide: Decide,
): Promise<Omit<Decision, 'builderSettings'>> {
  let verdict = decide(risk);
  let delayS = 0;
  if (verdict.restrictions.length === 0) {
    delayS = await betDelayOf(deps, {
      whiteLabel: request.whiteLabel,
      bet: request.bet,
      events: verdict.events,
      group: risk?.group.name ?? 'default',
      clientCreatedAt: request.clientCreatedAt,
      receivedAt: request.receivedAt,
    });
    const waitS = Math.min(delayS, request.wait.maxS);
    if (waitS > 0 && !(await request.repeated)) {
      await request.wait.sleep(waitS * 1000);
      verdict = decide(risk);
    }
  }
  return decisionOf(deps, request, risk, decide, verdict, delayS);
}

/** `GET /restrictions`: decides, and reports the bet delay a placement now would wait. */
async function decideRestrictions(
  deps: DecisionDeps,
  request: RestrictionsRequest,
  risk: RiskState | undefined,
  decide: Decide,
): Promise<Omit<Decision, 'builderSettings'>> {
  const verdict = decide(risk);
  const delayS = await betDelayOf(deps, {
    whiteLabel: request.whiteLabel,
    bet: request.bet,
    events: verdict.events,
    group: risk?.group.name ?? 'default',
    clientCreatedAt: request.clientCreatedAt,
    receivedAt: deps.clock.now(),
  });
  return decisionOf(deps, request, risk, decide, verdict, delayS);
}

/** The decision as answered: the verdict, the delay, and the recheck its write takes under the exposure lock. */
function decisionOf(
  deps: DecisionDeps,
  request: DecisionRequest,
  risk: RiskState | undefined,
  decide: Decide,
  verdict: ReturnType<Decide>,
  delayS: number,
): Omit<Decision, 'builderSettings'> {
  const recheck: RiskRecheck | undefined = risk
    ? {
        whiteLabelId: request.whiteLabel.id,
        eurRate: risk.eurRate,
        outcomes: verdict.legs.map((l) => l.outcome),
        decide: recheckOf(deps, risk, decide, verdict),
      }
    : undefined;
  const out = verdict as ReturnType<Decide> & Omit<Decision, 'builderSettings'>;
  out.delayS = delayS;
  out.recheck = recheck;
  return out;
}

/**
 * The decision again on the locked exposure. A verdict that passed, on a catalogue no feed entry has changed since
 * (same feed version), can only be moved by the exposure, through the liability limits: while every limited
 * outcome's exposure is within the bound the verdict gave for it, the bet still passes with the same legs, and the
 * whole decision (integrity, odds, type, limits) is taken again only when a bound is passed or the catalogue moved.
 */
function recheckOf(
  deps: DecisionDeps,
  risk: RiskState,
  decide: Decide,
  verdict: ReturnType<Decide>,
): RiskRecheck['decide'] {
  const full = (exposure: ReadonlyMap<string, Rational>) => decide({ ...risk, exposure });
  const bounds = verdict.exposureBounds;
  const version = verdict.catalogVersion;
  if (verdict.restrictions.length > 0 || bounds === undefined || version === undefined) return full;
  const legs = verdict.legs;
  return (exposure) =>
    deps.catalog.version === version && withinExposureBounds(bounds, exposure)
      ? { restrictions: [], legs }
      : full(exposure);
}
