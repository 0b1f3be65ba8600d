/**
 * The names of the bonus conditions and the bet types each applies to (the callback contract, "Freebet conditions"),
 * shared by their parsing (conditions.ts) and their matching (condition-matching.ts).
 */
import type { BetType } from './bet-types.js';

/** The conditions an entry of `bet_details` may carry (the callback contract, "Freebet conditions"), in the spec's order. */
export const CONDITION_NAMES = [
  'odds_count',
  'bet_builder_odds_count',
  'bet_builder_inner_odds_count',
  'total_odds_coefficient',
  'system_size',
  'combinations_count',
  'odds_coefficient',
  'sport',
  'tournament',
  'sport_event',
  'market_types',
  'competitor',
] as const;

/** One condition of a `bet_details` entry. */
export type ConditionName = (typeof CONDITION_NAMES)[number];

/** The bet types each condition applies to (the callback contract: "not applicable to single", "system only"). */
export const CONDITION_BET_TYPES: Readonly<Record<ConditionName, readonly BetType[]>> = {
  odds_count: ['express', 'system'],
  bet_builder_odds_count: ['single', 'express', 'system'],
  bet_builder_inner_odds_count: ['single', 'express', 'system'],
  total_odds_coefficient: ['express', 'system'],
  system_size: ['system'],
  combinations_count: ['system'],
  odds_coefficient: ['single', 'express', 'system'],
  sport: ['single', 'express', 'system'],
  tournament: ['single', 'express', 'system'],
  sport_event: ['single', 'express', 'system'],
  market_types: ['single', 'express', 'system'],
  competitor: ['single', 'express', 'system'],
};

export const COUNT_CONDITIONS = [
  'odds_count',
  'bet_builder_odds_count',
  'bet_builder_inner_odds_count',
  'system_size',
  'combinations_count',
] as const;
export const ODDS_CONDITIONS = ['total_odds_coefficient', 'odds_coefficient'] as const;
export const LIST_CONDITIONS = ['sport', 'tournament', 'sport_event', 'market_types', 'competitor'] as const;
