/**
 * Restrictions: why a bet is declined or what the platform advises (the callback contract, "Restriction", the MTS and advisory contract "Advisory bet
 * response"). A restriction is `{type, context}`; this module types the context of each of the 24 types.
 *
 * Context fields follow the MTS and advisory contract's table where it speaks; the others are Bookie's choice (the callback errors rule for
 * `not_enough_balance`, `player_limit` and `internal_error`). Every context may also carry `max_bet` and
 * `sport_event_id` where they are known ({@link withKnownContext}). All amounts are decimal strings with 6 decimals
 * (the decimal strings rule); statuses are the wire codes of the feed contract.
 *
 * @packageDocumentation
 */
import type { BetType } from './bet-type-names.js';

/** All 24 restriction types of the callback contract, "Restriction", in the spec's order. */
export const RESTRICTION_TYPES = [
  'max_bet',
  'bet_type',
  'bet_interval',
  'selection_value',
  'sport_event_status',
  'sport_event_existence',
  'sport_event_bet_stop',
  'market_status',
  'market_existence',
  'market_defective',
  'odd_status',
  'odd_existence',
  'player_limit',
  'freebet_not_applicable',
  'freebet_status',
  'freebet_amount',
  'insurance_not_applicable',
  'insurance_status',
  'insurance_value',
  'internal_error',
  'min_bet',
  'not_enough_balance',
  'wl_defined',
  'bonus_not_applicable',
] as const;

/** One of the 24 restriction types of the callback contract, "Restriction". */
export type RestrictionType = (typeof RESTRICTION_TYPES)[number];

/** True when `s` is one of the 24 restriction types (the callback contract, "Restriction"). */
export function isRestrictionType(s: unknown): s is RestrictionType {
  return typeof s === 'string' && (RESTRICTION_TYPES as readonly string[]).includes(s);
}

/**
 * Fields any context may carry "where they are known": the player's current maximum bet (decimal string,
 * 6 decimals, bet currency) and the sport event concerned.
 */
export interface KnownContext {
  /** Maximum stake currently allowed, decimal string with 6 decimals in the bet currency. */
  max_bet?: string;
  /** Sport event id the restriction is about. */
  sport_event_id?: string;
}

/** A selection reference inside a context: sport event, market and odd (outcome) ids. */
export interface SelectionRef {
  /** Sport event id. */
  sport_event_id: string;
  /** Market id (may encode specifiers, the feed contract, "Market"). */
  market_id: string;
  /** Odd (outcome) id inside the market. */
  odd_id: string;
}

/** The context of each restriction type (the MTS and advisory contract's table for the first 12; Bookie's choice for the rest). */
export interface RestrictionContexts {
  /** Stake above the maximum (the MTS and advisory contract): `max_bet` decimal string (6 decimals). */
  max_bet: KnownContext & { max_bet: string };
  /** Bet type not allowed for these selections (the MTS and advisory contract): the bet type name; `reason` says which rule failed. */
  bet_type: KnownContext & {
    bet_type: BetType;
    reason?: BetTypeViolation;
    /** With reason `too_many_combinations`: the most combinations a system may have. */
    max_combinations?: number;
    /** With reason `system_sizes_mismatch`: the `type.system_sizes` the bet must carry (`[1]` or `[n]`). */
    expected_system_sizes?: number[];
  };
  /** Bets too frequent (the MTS and advisory contract): `time_to_wait` in seconds, decimal string. */
  bet_interval: KnownContext & { time_to_wait: string };
  /** Odds changed beyond the acceptance strategy (the MTS and advisory contract): `value` is the current odds (decimal string). */
  selection_value: KnownContext & SelectionRef & { value: string; requested_value?: string };
  /** Fixture status forbids bets (the MTS and advisory contract, the feed contract, "Fixture status"): `status` code. */
  sport_event_status: KnownContext & { sport_event_id: string; status: number };
  /** Sport event unknown (the MTS and advisory contract). */
  sport_event_existence: KnownContext & { sport_event_id: string };
  /** Bet stop active on the sport event (the MTS and advisory contract, the feed contract, "bet_stop"). */
  sport_event_bet_stop: KnownContext & { sport_event_id: string };
  /** Market status forbids bets (the MTS and advisory contract, the feed contract, "Market status"): `status` code. */
  market_status: KnownContext & { sport_event_id: string; market_id: string; status: number };
  /** Market unknown on the sport event (the MTS and advisory contract). */
  market_existence: KnownContext & { sport_event_id: string; market_id: string };
  /** Market flagged defective (the MTS and advisory contract). */
  market_defective: KnownContext & { sport_event_id: string; market_id: string };
  /** Odd status or activity forbids bets (the MTS and advisory contract, the feed contract, "Odd status"): `status` code and `is_active`. */
  odd_status: KnownContext & SelectionRef & { status: number; is_active: boolean };
  /** Odd unknown in the market (the MTS and advisory contract). */
  odd_existence: KnownContext & SelectionRef;
  /** The partner refused the hold for player limits (the callback errors rule `player_limit_crossed`, `data.types`). */
  player_limit: KnownContext & { types: string[] };
  /** The freebet's conditions, or its currency (`condition: currency_code`), do not match the bet (the callback contract, ADR 0009). */
  freebet_not_applicable: KnownContext & { freebet_id: string; condition?: string };
  /** The freebet is not available: `not_found` (unknown, another player's), reserved, used, cancelled, expired. */
  freebet_status: KnownContext & { freebet_id: string; status: string };
  /** The stake does not equal the freebet amount: both decimal strings with 6 decimals. */
  freebet_amount: KnownContext & { freebet_id: string; freebet_amount: string; stake: string };
  /** The insurance's conditions do not match the bet (the callback contract, "Bet insurance conditions"). */
  insurance_not_applicable: KnownContext & { insurance_id: string; condition?: string };
  /** The insurance is not available (applied, paid, expired…). */
  insurance_status: KnownContext & { insurance_id: string; status: string };
  /** The insurance's payout rule is invalid for this bet (e.g. stake outside stake_amount_range). */
  insurance_value: KnownContext & { insurance_id: string; reason?: string };
  /**
   * An internal failure declined the bet (the callback errors rule, e.g. `{code: "place_retry_limit_reached"}`). For an
   * unreachable `/bet/place` also the cause: `attempts`, `last_status` (HTTP status, `null` when none came) and
   * `last_error` (e.g. `ECONNREFUSED`, `timeout`, `HTTP 503`).
   */
  internal_error: KnownContext & {
    code: string;
    attempts?: number;
    last_status?: number | null;
    last_error?: string;
  };
  /** Stake below the minimum: `min_bet` decimal string (6 decimals). */
  min_bet: KnownContext & { min_bet: string };
  /** The partner refused the hold for balance (the callback errors rule): `actual_balance` decimal string (6 decimals). */
  not_enough_balance: KnownContext & { actual_balance?: string };
  /** A rule defined by the white label forbids the bet; `rule` names it. */
  wl_defined: KnownContext & {
    rule?: string;
    /** Why, as a code: a bet builder's refusal code (core's `BUILDER_REFUSAL_CODES`) for a refused builder. */
    reason?: string;
  };
  /** A bonus (e.g. a bet boost) cannot be applied to this bet. */
  bonus_not_applicable: KnownContext & { bonus_id?: string; reason?: string };
}

/** Why a bet type was refused (context `reason` of a `bet_type` restriction; the callback contract, "Bet types", the MTS and advisory contract). */
export type BetTypeViolation =
  | 'single_needs_one_selection'
  | 'express_needs_two_selections'
  | 'system_needs_two_selections'
  | 'selections_on_same_sport_event'
  | 'system_sizes_missing'
  | 'system_size_out_of_range'
  | 'system_sizes_not_distinct'
  | 'too_many_combinations'
  | 'system_sizes_mismatch';

/**
 * A restriction of type `T`: `{type, context}` (the callback contract, "Restriction"). `Restriction` without a parameter is the
 * discriminated union of all 24 types, so `switch (r.type)` narrows `r.context`.
 */
export type Restriction<T extends RestrictionType = RestrictionType> = {
  [K in T]: { type: K; context: RestrictionContexts[K] };
}[T];

/**
 * Builds a restriction of `type` with its typed `context` (the callback contract, "Restriction").
 *
 * @example `restriction('max_bet', { max_bet: '100.000000', sport_event_id: 'e1' })`
 */
export function restriction<T extends RestrictionType>(
  type: T,
  context: RestrictionContexts[T],
): Restriction<T> {
  return { type, context } as Restriction<T>;
}

/**
 * Adds `max_bet` and `sport_event_id` to every context that lacks them, for the cases where they are known
 * ("every context carries max_bet and sport_event_id where they are known"). Existing values win.
 *
 * @param known - values to add; `undefined` fields are skipped.
 * @returns new restriction objects (inputs are not mutated).
 */
export function withKnownContext(restrictions: readonly Restriction[], known: KnownContext): Restriction[] {
  return restrictions.map((r) => {
    const context: Record<string, unknown> = { ...r.context };
    if (known.max_bet !== undefined && context.max_bet === undefined) context.max_bet = known.max_bet;
    if (known.sport_event_id !== undefined && context.sport_event_id === undefined) {
      context.sport_event_id = known.sport_event_id;
    }
    return { type: r.type, context } as Restriction;
  });
}
