/**
 * Wire formats of the risk engine's admin and player-risk routes (docs/adr/0018-risk-engine.md): the path of a
 * player's risk, the operator's exposure and shading listings, liability limits, risk groups and bet delays, and the
 * exposure recompute. Money is a decimal string (EUR for exposure and limits; the decimal strings rule), odds a
 * decimal string, delays seconds as a decimal string with at most 3 decimals.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';

/** A row count in a query string: 1–10000 (the listings' default is 1000). */
const ROWS = Type.String({
  pattern: '^[1-9][0-9]{0,3}$|^10000$',
  description: 'rows, 1–10000 (default 1000)',
});

/** Path of `GET` / `PUT /players/{player_id}/risk` (the partner's player risk, the risk rule). */
export const PlayerRiskParams = Type.Object({ player_id: Type.String({ minLength: 1, maxLength: 128 }) });
/** See {@link PlayerRiskParams}. */
export type PlayerRiskParams = Static<typeof PlayerRiskParams>;

/** Path of the operator's `GET` / `PUT /admin/risk/players/{white_label_id}/{player_id}`. */
export const AdminPlayerRiskParams = Type.Object({
  white_label_id: Type.String({ minLength: 1, maxLength: 64 }),
  player_id: Type.String({ minLength: 1, maxLength: 128 }),
});
/** See {@link AdminPlayerRiskParams}. */
export type AdminPlayerRiskParams = Static<typeof AdminPlayerRiskParams>;

/**
 * Query of `GET /admin/risk/exposure` (the risk rule: exposure per sport event and market): filters, each optional;
 * `limit` a row count 1–10000 as a string (default 1000).
 */
export const ExposureQuery = Type.Object(
  {
    white_label_id: Type.Optional(Type.String({ minLength: 1 })),
    sport_event_id: Type.Optional(Type.String({ minLength: 1 })),
    market_id: Type.Optional(Type.String({ minLength: 1 })),
    limit: Type.Optional(ROWS),
  },
  { additionalProperties: false },
);
/** See {@link ExposureQuery}. */
export type ExposureQuery = Static<typeof ExposureQuery>;

/** Query of `GET /admin/risk/shading` (odds shading history): a sport event filter and a row count 1–10000. */
export const ShadingQuery = Type.Object(
  {
    sport_event_id: Type.Optional(Type.String({ minLength: 1 })),
    limit: Type.Optional(ROWS),
  },
  { additionalProperties: false },
);
/** See {@link ShadingQuery}. */
export type ShadingQuery = Static<typeof ShadingQuery>;

/**
 * Answer of `GET /admin/risk/shading`: every outcome whose published odds shading lowered at least once, with the
 * odds trading set (`base_odds`), the lowest published (`lowest_odds`, both decimal odds as the feed writes them)
 * and how many times lowered odds were published.
 */
export const ShadingList = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        sport_event_id: Type.String(),
        market_id: Type.String(),
        odd_id: Type.String(),
        market_type_id: Type.String(),
        base_odds: Type.String({ description: 'the odds trading set, before shading' }),
        lowest_odds: Type.String({ description: 'the lowest odds shading published' }),
        publications: Type.Integer({ description: 'how many times lowered odds were published' }),
      }),
    ),
  },
  {
    examples: [
      {
        items: [
          {
            sport_event_id: 'se-1',
            market_id: '1',
            odd_id: '1',
            market_type_id: '1',
            base_odds: '2.100',
            lowest_odds: '1.950',
            publications: 3,
          },
        ],
      },
    ],
  },
);
/** See {@link ShadingList}. */
export type ShadingList = Static<typeof ShadingList>;

/**
 * Body of `PUT /admin/risk/limits` (the risk rule: liability limits): the liability limit per outcome of a white label,
 * market type (`'*'` for every type) and phase, in EUR as a decimal string; `null` removes it.
 */
export const RiskLimitBody = Type.Object(
  {
    white_label_id: Type.String({ minLength: 1 }),
    market_type_id: Type.String({ minLength: 1, description: "a market type id, or '*' for every type" }),
    phase: Type.Union([Type.Literal('live'), Type.Literal('prematch')]),
    liability_eur: Type.Union([Type.String(), Type.Null()], {
      description: 'EUR per outcome; null removes it',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ white_label_id: 'wl-1', market_type_id: '*', phase: 'prematch', liability_eur: '5000' }],
  },
);
/** See {@link RiskLimitBody}. */
export type RiskLimitBody = Static<typeof RiskLimitBody>;

/**
 * Body of `PUT /admin/risk/groups` (the risk rule: risk groups): a risk group's name, its stake factor (a decimal
 * ≥ 0; 0 blocks) and the max payout in EUR a VIP `recommended_max_payout` is matched to (`null`: none).
 */
export const RiskGroupBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 40 }),
    stake_factor: Type.String({ description: 'decimal ≥ 0; 0 blocks' }),
    max_payout_eur: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'high_roller', stake_factor: '3', max_payout_eur: '100000' }],
  },
);
/** See {@link RiskGroupBody}. */
export type RiskGroupBody = Static<typeof RiskGroupBody>;

/**
 * Body of `PUT /admin/risk/delays` (the bet delay rule): a delay in seconds (0–300, at most 3 decimals, as a string)
 * per sport event, market type or risk group and phase; `null` removes it. The largest level applies.
 */
export const BetDelayBody = Type.Object(
  {
    level: Type.Union([Type.Literal('sport_event'), Type.Literal('market_type'), Type.Literal('risk_group')]),
    key: Type.String({ minLength: 1, maxLength: 128 }),
    phase: Type.Union([Type.Literal('live'), Type.Literal('prematch')]),
    seconds: Type.Union([Type.String(), Type.Null()], {
      description: '0–300, at most 3 decimals; null removes it',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ level: 'market_type', key: '1', phase: 'live', seconds: '9' }],
  },
);
/** See {@link BetDelayBody}. */
export type BetDelayBody = Static<typeof BetDelayBody>;

/**
 * Answer of `GET /admin/risk/settings` and of each change to them: every liability limit, risk group and bet delay
 * level, as the rows {@link RiskLimitBody}, {@link RiskGroupBody} and {@link BetDelayBody} set (money with 6 decimals).
 */
export const RiskSettings = Type.Object(
  {
    limits: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    groups: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    delays: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    examples: [
      {
        limits: [
          { white_label_id: 'wl-1', market_type_id: '*', phase: 'prematch', liability_eur: '5000.000000' },
        ],
        groups: [{ name: 'vip', stake_factor: '5.000000', max_payout_eur: '250000.000000' }],
        delays: [{ level: 'market_type', key: '1', phase: 'live', seconds: '9' }],
      },
    ],
  },
);
/** See {@link RiskSettings}. */
export type RiskSettings = Static<typeof RiskSettings>;

/**
 * Answer of `POST /admin/risk/recompute`: each open bet's leg exposures and each outcome's total recomputed from the
 * bets and compared with the stored ones; `ok` when nothing differs (reads only).
 */
export const ExposureRecompute = Type.Object(
  {
    ok: Type.Boolean(),
    bets_checked: Type.Integer(),
    bets_without_exposure: Type.Integer(),
    outcome_differences: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    bet_differences: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    examples: [
      { ok: true, bets_checked: 120, bets_without_exposure: 0, outcome_differences: [], bet_differences: [] },
    ],
  },
);
/** See {@link ExposureRecompute}. */
export type ExposureRecompute = Static<typeof ExposureRecompute>;
