/**
 * The one decision for every way a bet arrives: the frame's placement, MTS `POST /bets`, advisory and `GET
 * /restrictions` each parse their request into a {@link PlacementRequest} and call {@link decideBet}.
 */

export { decideBet } from './decide-bet.js';
export type {
  AdviseRequest,
  Decision,
  DecisionMode,
  DecisionRequest,
  PlaceRequest,
  RecommendedPayout,
  ReportRequest,
  RestrictionsRequest,
} from './decision-request.js';
export type { DecisionDeps, DecisionSettings } from './deps.js';
export type { BetFacts, GroupAtHold } from './facts.js';
export { groupAtHold } from './facts.js';
export * from './get-restrictions.js';
export { parseBuilders } from './parse-builders.js';
export {
  type PlacementRequest,
  type PlacementVerdict,
  type RequestedBuilder,
  type RequestedSelection,
  requestLegs,
  requestSportEvents,
  totalOddsOf,
} from './validate-placement.js';
