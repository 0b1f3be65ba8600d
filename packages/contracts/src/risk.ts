/**
 * Wire formats of the risk engine (the partner-reported bets rule, the risk rule, the risk rule, the risk rule; docs/adr/0018-risk-engine.md): `GET
 * /restrictions`, players' risk, and the operator's exposure and settings. Money is a decimal string with 6
 * decimals (the decimal strings rule); exposure and limits are in EUR.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { DECIMAL_PATTERN as DECIMAL } from './decimal.js';

/**
 * Query of `GET /restrictions` (the partner-reported bets rule): the fields (see "partner-reported bets" in docs/decisions.md). `selection` repeats, one per platform selection, written
 * `sport_event_id/market_id/odd_id/value` with each part percent-encoded.
 */
export const RestrictionsQuery = Type.Object(
  {
    player_id: Type.String({ minLength: 1, maxLength: 128 }),
    type_code: Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('2')], {
      description: '0 single, 1 express, 2 system',
    }),
    system_sizes: Type.Optional(
      Type.String({
        pattern: '^[0-9]+(,[0-9]+)*$',
        description:
          'comma-separated; required for a system; given for a single ([1]) or an express ([n]), checked like POST /bets',
      }),
    ),
    stake: Type.Optional(
      Type.String({ pattern: DECIMAL, description: 'stake; without it the largest acceptable' }),
    ),
    currency_code: Type.String({ pattern: '^[A-Z]{3}$' }),
    selection: Type.Union(
      [Type.String({ minLength: 5 }), Type.Array(Type.String({ minLength: 5 }), { maxItems: 30 })],
      {
        description: 'sport_event_id/market_id/odd_id/value, each part percent-encoded; one per selection',
      },
    ),
    odds_strategy: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('3')])),
    recommended_max_payout: Type.Optional(
      Type.String({
        pattern: DECIMAL,
        description:
          "VIP limit in the bet currency: counts on a player's first request (this call or a bet) only, and only raises the limit",
      }),
    ),
    created_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "the client's bet creation time: its delay is deducted from bet_delay_s",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        player_id: 'p-1',
        type_code: '0',
        stake: '10',
        currency_code: 'EUR',
        selection: 'ev-1/1/1',
      },
    ],
  },
);
/** See {@link RestrictionsQuery}. */
export type RestrictionsQuery = Static<typeof RestrictionsQuery>;

/** A restriction `{type, context}` (the callback contract, "Restriction", the MTS and advisory contract's contexts). */
export const RestrictionItem = Type.Object({
  type: Type.String(),
  context: Type.Record(Type.String(), Type.Unknown()),
});

/**
 * Answer of `GET /restrictions` (the partner-reported bets rule): what placing the bet now would decide. No bet is
 * recorded; a player's first request is (its `recommended_max_payout` counts, later ones do not).
 */
export const RestrictionsAnswer = Type.Object(
  {
    restrictions: Type.Array(RestrictionItem),
    max_bet: Type.Union([Type.Object({ value: Type.String(), currency_code: Type.String() }), Type.Null()], {
      description: 'the largest acceptable stake; null when nothing limits it',
    }),
    max_payout: Type.Union(
      [Type.Object({ value: Type.String(), currency_code: Type.String() }), Type.Null()],
      {
        description: 'the potential payout at max_bet',
      },
    ),
    bet_delay_s: Type.String({
      description: 'seconds the platform would delay the bet, decimal string',
    }),
  },
  {
    examples: [
      {
        restrictions: [{ type: 'max_bet', context: { max_bet: '40.000000', sport_event_id: 'ev-1' } }],
        max_bet: { value: '40.000000', currency_code: 'EUR' },
        max_payout: { value: '100.000000', currency_code: 'EUR' },
        bet_delay_s: '0',
      },
    ],
  },
);
/** See {@link RestrictionsAnswer}. */
export type RestrictionsAnswer = Static<typeof RestrictionsAnswer>;

/** A player's risk (the risk rule): score in [0, 1] (6 decimals), group and its stake factor. */
export const PlayerRiskView = Type.Object(
  {
    player_id: Type.String(),
    score: Type.String({ description: 'closing-line value score in [0, 1], shrunk towards 0.5' }),
    bets_scored: Type.Integer({ description: 'settled prematch legs with a closing price behind the score' }),
    group: Type.String(),
    stake_factor: Type.String(),
    group_source: Type.String({ description: 'default | recommended | partner | operator' }),
  },
  {
    examples: [
      {
        player_id: 'p-1',
        score: '0.612345',
        bets_scored: 14,
        group: 'default',
        stake_factor: '1.000000',
        group_source: 'default',
      },
    ],
  },
);
/** See {@link PlayerRiskView}. */
export type PlayerRiskView = Static<typeof PlayerRiskView>;

/** Body of `PUT /players/{player_id}/risk`: the player's risk group (e.g. `blocked` for self-exclusion). */
export const PutPlayerRiskBody = Type.Object(
  { group: Type.String({ minLength: 1, maxLength: 40 }) },
  { additionalProperties: false, examples: [{ group: 'blocked' }] },
);
/** See {@link PutPlayerRiskBody}. */
export type PutPlayerRiskBody = Static<typeof PutPlayerRiskBody>;

/** One outcome's exposure (the risk rule), EUR, with its limit and the share used. */
export const ExposureView = Type.Object({
  white_label_id: Type.String(),
  sport_event_id: Type.String(),
  market_id: Type.String(),
  odd_id: Type.String(),
  phase: Type.String(),
  market_type_id: Type.String(),
  exposure_eur: Type.String(),
  max_exposure_eur: Type.String({ description: 'the largest exposure the outcome has had' }),
  limit_eur: Type.Union([Type.String(), Type.Null()]),
});
/** Answer of the operator's exposure listing. */
export const ExposureList = Type.Object(
  { items: Type.Array(ExposureView) },
  {
    examples: [
      {
        items: [
          {
            white_label_id: 'wl-1',
            sport_event_id: 'ev-1',
            market_id: '1',
            odd_id: '1',
            phase: 'prematch',
            market_type_id: '1',
            exposure_eur: '1500.000000',
            max_exposure_eur: '2500.000000',
            limit_eur: '5000.000000',
          },
        ],
      },
    ],
  },
);
/** See {@link ExposureList}. */
export type ExposureList = Static<typeof ExposureList>;

/**
 * Query of `GET /frame-api/restrictions`: {@link RestrictionsQuery} without `player_id` (the session's player) and
 * `recommended_max_payout` (a partner's setting, not a player's). Without `stake` the answer's `max_bet` is the
 * largest stake the bet slip can place now.
 */
export const FrameRestrictionsQuery = Type.Omit(RestrictionsQuery, ['player_id', 'recommended_max_payout'], {
  additionalProperties: false,
  examples: [
    {
      type_code: '1',
      currency_code: 'EUR',
      selection: [
        '5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21/1/home/2.10',
        '7a1c2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/18%3Atotal%3D2.5/over/1.85',
      ],
    },
  ],
});
/** See {@link FrameRestrictionsQuery}. */
export type FrameRestrictionsQuery = Static<typeof FrameRestrictionsQuery>;
