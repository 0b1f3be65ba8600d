/**
 * Bet builder wire formats (DECISIONS D59; docs/adr/0042-bet-builder-pricing.md): the selections a builder can
 * take on a sport event and the builder calculator, in the shape of a custom-bet "calculate" — the legs chosen so
 * far in, their combined odds and the odds that can still be added out. The pricing is `@bookie/core`'s
 * (`calculateBuilder`); the routes that serve these bodies are not built yet.
 *
 * @packageDocumentation
 */
import { BUILDER_REFUSAL_CODES, MAX_BUILDER_LEGS } from '@bookie/core';
import { type Static, Type } from '@sinclair/typebox';
import { Decimal6 } from './callbacks.js';
import { DECIMAL_PATTERN } from './decimal.js';

/** A probability written with 12 decimals, in [0, 1] (as the feed's `probability`, D41). */
const Probability = Type.String({
  pattern: '^(0\\.[0-9]{12}|1\\.0{12})$',
  description: 'probability in [0, 1], 12 decimals',
});

/**
 * Why a builder or a leg is refused (core's `BUILDER_REFUSAL_CODES`, where each is explained): the event has no
 * model (`sport_not_modelled`, `no_score_model`, `model_fit_failed`), a leg is not usable (`unknown_market`,
 * `unknown_odd`, `not_bettable`, `unsupported_market`, `unsupported_outcome`, `unsupported_line`,
 * `different_sport_event`), the combination is not (`no_legs`, `too_many_legs`, `same_market`, `contradictory`,
 * `odds_out_of_range`).
 */
export const BuilderRefusalReason = Type.Union(
  BUILDER_REFUSAL_CODES.map((c) => Type.Literal(c)),
  { description: 'why the builder or a leg is refused' },
);
/** Why a builder or a leg is refused. */
export type BuilderRefusalReason = Static<typeof BuilderRefusalReason>;

/** A refusal: its reason, a sentence naming the leg, and the leg's index in the request when it is about one. */
export const BuilderRefusal = Type.Object(
  {
    reason: BuilderRefusalReason,
    message: Type.String({
      description: 'what is refused, naming the leg (e.g. `legs[1] (market 1, odd 2): …`)',
    }),
    leg: Type.Optional(
      Type.Integer({ minimum: 0, description: "index of the refused leg in the request's legs" }),
    ),
  },
  { additionalProperties: false },
);
/** A refusal. */
export type BuilderRefusal = Static<typeof BuilderRefusal>;

/**
 * A leg: a market of the sport event (its id; `specifiers`, when given, must be the market's) and one of its odds
 * (the feed's odd id). The leg's market must be decided by the final score (1X2, double chance, draw no bet,
 * European handicap, Asian handicap on whole or half lines, totals and team totals, both teams to score, correct
 * score).
 */
export const BuilderLeg = Type.Object(
  {
    market_id: Type.String({ minLength: 1, maxLength: 128, description: 'market id in the feed' }),
    specifiers: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 64 }), {
        description: 'the market\'s specifiers, checked when given (e.g. {"total": "2.5"})',
      }),
    ),
    odd_id: Type.String({ minLength: 1, maxLength: 128, description: 'odd (outcome) id in the market' }),
  },
  { additionalProperties: false },
);
/** A leg. */
export type BuilderLeg = Static<typeof BuilderLeg>;

const Legs = (minItems: number) =>
  Type.Array(BuilderLeg, { minItems, maxItems: MAX_BUILDER_LEGS, description: 'the legs chosen so far' });

/** An odd that can still join the builder, with the builder's odds once it has. */
export const BuilderSelection = Type.Object(
  {
    market_id: Type.String(),
    odd_id: Type.String(),
    label: Type.String({ description: 'what the odd is, e.g. `total 2.5: over`' }),
    odds: Decimal6,
  },
  { additionalProperties: false },
);
/** An odd that can still join the builder. */
export type BuilderSelection = Static<typeof BuilderSelection>;

/** Body of the available-selections request: the sport event and the legs chosen so far (none at first). */
export const BuilderSelectionsBody = Type.Object(
  { sport_event_id: Type.String({ minLength: 1, maxLength: 128 }), legs: Type.Optional(Legs(0)) },
  {
    additionalProperties: false,
    examples: [
      { sport_event_id: '7d0c1f5e-2f0a-4d8e-9c43-5a1b2c3d4e5f' },
      { sport_event_id: '7d0c1f5e-2f0a-4d8e-9c43-5a1b2c3d4e5f', legs: [{ market_id: '1', odd_id: '1' }] },
    ],
  },
);
/** Body of the available-selections request. */
export type BuilderSelectionsBody = Static<typeof BuilderSelectionsBody>;

/** Answer of the available-selections request: what can be added, or why the event takes no builder. */
export const BuilderSelectionsAnswer = Type.Object(
  {
    available: Type.Boolean({
      description: 'false: no builder on this event or with these legs, see refusal',
    }),
    refusal: Type.Optional(BuilderRefusal),
    selections: Type.Array(BuilderSelection, { description: 'odds that can join, by market id then odd id' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        available: true,
        selections: [
          { market_id: '1', odd_id: '1', label: '1X2: home', odds: '2.073000' },
          { market_id: '18:total=2.5', odd_id: '12', label: 'total 2.5: over', odds: '1.930000' },
        ],
      },
      {
        available: false,
        refusal: {
          reason: 'sport_not_modelled',
          message: 'sport tennis has no score model; builders are football only',
        },
        selections: [],
      },
    ],
  },
);
/** Answer of the available-selections request. */
export type BuilderSelectionsAnswer = Static<typeof BuilderSelectionsAnswer>;

/** Body of the builder calculator: the sport event and at least one leg. */
export const BuilderCalculateBody = Type.Object(
  { sport_event_id: Type.String({ minLength: 1, maxLength: 128 }), legs: Legs(1) },
  {
    additionalProperties: false,
    examples: [
      {
        sport_event_id: '7d0c1f5e-2f0a-4d8e-9c43-5a1b2c3d4e5f',
        legs: [
          { market_id: '1', odd_id: '1' },
          { market_id: '18:total=2.5', specifiers: { total: '2.5' }, odd_id: '12' },
        ],
      },
    ],
  },
);
/** Body of the builder calculator. */
export type BuilderCalculateBody = Static<typeof BuilderCalculateBody>;

/** A priced leg: its ids, what it is, and its own model probability. */
export const BuilderPricedLeg = Type.Object(
  { market_id: Type.String(), odd_id: Type.String(), label: Type.String(), probability: Probability },
  { additionalProperties: false },
);
/** A priced leg. */
export type BuilderPricedLeg = Static<typeof BuilderPricedLeg>;

/**
 * Answer of the builder calculator: the combined odds (fair odds / (1 + the white label's builder margin), rounded
 * down to 3 decimals, written with 6; between 1.01 and 1000), the model's probability that every leg wins, the
 * probability the builder is refunded (no leg lost, some leg refunded: draw no bet on a draw, a whole line on its
 * number), the legs, and the odds that can still be added with the price they would give. Refused: `available`
 * false and the refusal.
 */
export const BuilderCalculateAnswer = Type.Object(
  {
    available: Type.Boolean(),
    refusal: Type.Optional(BuilderRefusal),
    odds: Type.Optional(Decimal6),
    probability: Type.Optional(Probability),
    refund_probability: Type.Optional(Probability),
    legs: Type.Array(BuilderPricedLeg),
    selections: Type.Array(BuilderSelection, {
      description: 'odds that can still join, with the odds they give',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        available: true,
        odds: '3.290000',
        probability: '0.276275956143',
        refund_probability: '0.000000000000',
        legs: [
          { market_id: '1', odd_id: '1', label: '1X2: home', probability: '0.454342984410' },
          {
            market_id: '18:total=2.5',
            odd_id: '12',
            label: 'total 2.5: over',
            probability: '0.493506493506',
          },
        ],
        selections: [{ market_id: '29', odd_id: '74', label: 'both teams to score: yes', odds: '4.299000' }],
      },
      {
        available: false,
        refusal: {
          reason: 'contradictory',
          message: 'no final score wins every leg: 1X2: draw & correct score 1:0',
        },
        legs: [],
        selections: [],
      },
    ],
  },
);
/** Answer of the builder calculator. */
export type BuilderCalculateAnswer = Static<typeof BuilderCalculateAnswer>;

const QUOTE_DESCRIPTION =
  'the signed quote the builder calculator answered for these legs, when the player was offered one; optional: ' +
  'the builder is priced again from the current odds either way';

/**
 * A bet builder in a frame bet (`bet_builders` of `POST /frame-api/bets`; docs/adr/0043-bet-builder-bets.md): its
 * sport event, its inner legs (1 to {@link MAX_BUILDER_LEGS}, one per market), the combined odds the player saw
 * (decimal string) and, optionally, the calculator's signed quote. The bet counts it as ONE selection at its
 * combined odds: a single builder is a single bet, an express or a system may mix builders and plain odds on
 * different sport events. The odds strategy applies to the combined odds.
 */
export const PlaceBuilderSelection = Type.Object(
  {
    sport_event_id: Type.String({ minLength: 1, maxLength: 200 }),
    legs: Legs(1),
    odds: Type.String({ pattern: DECIMAL_PATTERN, description: 'combined odds the player saw, e.g. "4.1"' }),
    quote: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: QUOTE_DESCRIPTION })),
  },
  { additionalProperties: false },
);
/** A bet builder in a frame bet. */
export type PlaceBuilderSelection = Static<typeof PlaceBuilderSelection>;

/**
 * A bet builder in a reported or advisory bet (`bet_builders` of MTS `POST /bets` and `POST /bets/advisory`): as
 * {@link PlaceBuilderSelection}, with the combined odds in `value` like the body's other selections.
 */
export const ReportedBuilderSelection = Type.Object(
  {
    sport_event_id: Type.String({ minLength: 1, maxLength: 128 }),
    legs: Legs(1),
    value: Type.String({ pattern: DECIMAL_PATTERN, description: 'combined odds, decimal string' }),
    quote: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: QUOTE_DESCRIPTION })),
  },
  { additionalProperties: false },
);
/** A bet builder in a reported or advisory bet. */
export type ReportedBuilderSelection = Static<typeof ReportedBuilderSelection>;
