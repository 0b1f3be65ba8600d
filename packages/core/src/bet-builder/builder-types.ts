/**
 * The shapes of bet builder pricing (DECISIONS D59; docs/adr/0042-bet-builder-pricing.md): refusal codes, limits, the
 * event and leg inputs, and the quote and calculation answers of builder.ts.
 */
import { type Rational, rational } from '../decimal.js';
import type { FitResult } from './fit.js';
import type { ScoreMatrix } from './score-model.js';

/**
 * Why a builder (or one of its legs) is refused. Every refusal names the leg it is about when there is one.
 *
 * - `sport_not_modelled`: the event is not football, the only sport with a score model.
 * - `no_score_model`: the event has no active, fully quoted 1X2 market to fit the model to.
 * - `model_fit_failed`: the fitted model misses one of its input probabilities by more than {@link FIT_TOLERANCE}.
 * - `no_legs`: a price was asked for no legs.
 * - `too_many_legs`: more than the most legs a builder takes.
 * - `different_sport_event`: a leg names another sport event.
 * - `unknown_market`, `unknown_odd`: the leg's market (or its specifiers) or odd is not in the event.
 * - `not_bettable`: the leg's market is not active or its odd not open (status 0 and `is_active`).
 * - `unsupported_market`: the market's result is not a function of the final score, or not modelled.
 * - `unsupported_outcome`: the odd id is not one of the market's.
 * - `unsupported_line`: a missing or malformed line, a line beyond the model's range, or a quarter line (half
 *   results are not priced in a builder).
 * - `same_market`: two legs on one market.
 * - `contradictory`: no final score wins every leg (probability 0).
 * - `odds_out_of_range`: the priced odds fall below {@link BUILDER_MIN_ODDS} or above {@link BUILDER_MAX_ODDS}.
 */
export const BUILDER_REFUSAL_CODES = [
  'sport_not_modelled',
  'no_score_model',
  'model_fit_failed',
  'no_legs',
  'too_many_legs',
  'different_sport_event',
  'unknown_market',
  'unknown_odd',
  'not_bettable',
  'unsupported_market',
  'unsupported_outcome',
  'unsupported_line',
  'same_market',
  'contradictory',
  'odds_out_of_range',
] as const;

/** One of {@link BUILDER_REFUSAL_CODES}. */
export type BuilderRefusalCode = (typeof BUILDER_REFUSAL_CODES)[number];

/** A refusal: its code, a sentence naming the leg, and the leg's index in the request when it is about one. */
export interface BuilderRefusal {
  readonly code: BuilderRefusalCode;
  readonly message: string;
  readonly leg?: number;
}

/** Most legs in one builder. */
export const MAX_BUILDER_LEGS = 10;
/** Offered builder odds are rounded down to this many decimals (as shaded odds are). */
export const BUILDER_ODDS_DECIMALS = 3;
/** The shortest builder odds offered: 1.01. */
export const BUILDER_MIN_ODDS: Rational = rational(101n, 100n);
/** The longest builder odds offered: 1000. */
export const BUILDER_MAX_ODDS: Rational = rational(1000n);
/** The largest miss (absolute probability) of a fitted model on its inputs before the event is refused. */
export const FIT_TOLERANCE = 0.01;

/** An odd of the event as the builder reads it (the feed's Odd: `value` a decimal string above 1). */
export interface BuilderOddInput {
  readonly value: string;
  readonly status: number;
  readonly is_active: boolean;
}

/** A market of the event as the builder reads it (the feed's Market). */
export interface BuilderMarketInput {
  readonly type_id: number;
  readonly status: number;
  readonly specifiers: Readonly<Record<string, string>>;
  readonly odds: Readonly<Record<string, BuilderOddInput>>;
}

/** The sport event: its id, sport and markets keyed by market id (the feed's snapshot, fixture's `sport_id`). */
export interface BuilderEventInput {
  readonly id: string;
  readonly sport_id: string;
  readonly markets: Readonly<Record<string, BuilderMarketInput>>;
}

/**
 * A leg as a request names it: the market (by id; `specifiers`, when given, must equal the market's) and the odd.
 * `sport_event_id`, when given, must be the event's.
 */
export interface BuilderLegRef {
  readonly sport_event_id?: string;
  readonly market_id: string;
  readonly specifiers?: Readonly<Record<string, string>>;
  readonly odd_id: string;
}

/** Settings of a white label's builders. */
export interface BuilderSettings {
  /** The builder margin, a fraction in [0, 1) (0.1 = 10 %): offered odds = fair odds / (1 + margin). */
  readonly margin: Rational;
  /** Most legs (default and upper bound {@link MAX_BUILDER_LEGS}). */
  readonly maxLegs?: number;
}

/** An event's fitted score model, reusable for every builder on the event until its prices change. */
export interface BuilderModel {
  readonly eventId: string;
  readonly matrix: ScoreMatrix;
  readonly fit: FitResult;
}

/** A priced leg: the request's ids, what it is, and its own model probability of winning. */
export interface PricedLeg {
  readonly market_id: string;
  readonly odd_id: string;
  readonly label: string;
  /** P(this leg wins) under the model, exact (quantized matrix). */
  readonly probability: Rational;
}

/** The price of a builder. All values exact rationals; write odds with 6 decimals. */
export interface BuilderQuote {
  /** Offered odds: fair odds / (1 + margin), rounded down to {@link BUILDER_ODDS_DECIMALS}; in [1.01, 1000]. */
  readonly odds: Rational;
  /** Fair odds: (1 − refundProbability) / probability, exact. */
  readonly fairOdds: Rational;
  /** P(every leg wins). */
  readonly probability: Rational;
  /** P(no leg loses and some leg is refunded): the builder is then refunded whole. */
  readonly refundProbability: Rational;
  readonly legs: readonly PricedLeg[];
}

/** An odd that can still be added to the builder, with the builder's price once it is added. */
export interface AddableOdd {
  readonly market_id: string;
  readonly odd_id: string;
  readonly label: string;
  readonly odds: Rational;
  readonly probability: Rational;
}

/** The answer of {@link calculateBuilder}. */
export interface BuilderCalculation {
  /** The price of the chosen legs; absent when no leg is chosen. */
  readonly quote?: BuilderQuote;
  /** Every odd of the event that can join the chosen legs and keep a price, by market id then odd id. */
  readonly addable: readonly AddableOdd[];
  readonly model: BuilderModel;
}

/** A value or a refusal. */
export type BuilderResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: BuilderRefusal };
