/**
 * Wire formats of the bonus mechanics (the callback contract, "Freebet conditions", "Bet insurance conditions"; this work;
 * docs/adr/0009-bonuses.md): freebets, bet insurances and bet boosts, created and read by the partner with its bearer
 * token (the partner tokens rule), scoped to its white label.
 *
 * Conventions: money amounts are decimal strings (the decimal strings rule) and are written back with 6 decimals; insurance `percent` and
 * `max_amount` take up to 12 decimals and are written back with 12; times are RFC 3339 date-times; `conditions` and
 * `foreign_params` are returned as sent. The conditions' shape is the callback contract's nested `bet_details` form (one entry per
 * allowed bet type); schema checks here are structural, core `parseConditions` then rejects a condition that does
 * not apply to its bet type, naming it.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { DECIMAL_PATTERN as DECIMAL12, MONEY_PATTERN as MONEY } from './decimal.js';

/** A money amount (the decimal strings rule): a non-negative decimal string with at most 6 decimals, e.g. `"10"` or `"10.500000"`. */
export const BonusMoney = Type.String({
  pattern: MONEY,
  description: 'decimal string, at most 6 decimals',
});

/** A decimal string with at most 12 decimals (odds bounds, insurance percent and max_amount). */
export const BonusDecimal12 = Type.String({
  pattern: DECIMAL12,
  description: 'decimal string, at most 12 decimals',
});

/** An ISO 4217 alpha-3 currency code (the callback contract's insurance `currency_code`), e.g. `EUR`. */
export const BonusCurrency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 alpha-3, e.g. EUR',
});

/** An RFC 3339 date-time, e.g. `2030-01-01T00:00:00Z`; `null` (or absent) = never expires. */
export const BonusExpiry = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'RFC 3339 date-time; null = never expires',
});

/** Free-form partner parameters, stored and returned as sent (the callback contract's insurance `foreign_params`). */
export const ForeignParams = Type.Record(Type.String(), Type.Unknown(), {
  description: 'free-form partner parameters, returned as sent',
});

/** A player id of the white label (the `player_id` of the player's session tokens, the player sessions rule). */
export const BonusPlayerId = Type.String({ minLength: 1, maxLength: 100 });

/** The partner's idempotency key of a create: a repeat with the same key returns the first record. */
export const IdempotenceId = Type.String({ minLength: 1, maxLength: 200 });

/** An inclusive range of counts `{min?, max?}` (the callback contract). */
export const CountRange = Type.Object(
  { min: Type.Optional(Type.Integer({ minimum: 0 })), max: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
);

/** An inclusive range of odds `{min?, max?}`, decimal strings (the callback contract). */
export const OddsRange = Type.Object(
  { min: Type.Optional(BonusDecimal12), max: Type.Optional(BonusDecimal12) },
  { additionalProperties: false },
);

/** An inclusive range of money `{min?, max?}`, decimal strings (the callback contract's insurance `stake_amount_range`). */
export const MoneyRange = Type.Object(
  { min: Type.Optional(BonusMoney), max: Type.Optional(BonusMoney) },
  { additionalProperties: false },
);

const IdList = (what: string) =>
  Type.Array(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer()]), {
    minItems: 1,
    maxItems: 1000,
    description: `${what} ids; every leg of the bet must match`,
  });

/** The conditions of one bet type (the callback contract, "Freebet conditions" table). */
export const BetTypeConditions = Type.Object(
  {
    odds_count: Type.Optional(CountRange),
    bet_builder_odds_count: Type.Optional(CountRange),
    bet_builder_inner_odds_count: Type.Optional(CountRange),
    total_odds_coefficient: Type.Optional(OddsRange),
    system_size: Type.Optional(CountRange),
    combinations_count: Type.Optional(CountRange),
    odds_coefficient: Type.Optional(OddsRange),
    sport: Type.Optional(IdList('sport')),
    tournament: Type.Optional(IdList('tournament')),
    sport_event: Type.Optional(IdList('sport event')),
    market_types: Type.Optional(IdList('market type')),
    competitor: Type.Optional(IdList('competitor')),
  },
  { additionalProperties: false },
);

/** One entry of `bet_details`: an allowed bet type and its conditions. */
export const BetDetailsEntry = Type.Object(
  {
    type: Type.Union([Type.Literal('single'), Type.Literal('express'), Type.Literal('system')]),
    data: Type.Optional(BetTypeConditions),
  },
  { additionalProperties: false },
);

/**
 * Bonus conditions in the callback contract's shape: `[{type: "bet_details", data: {bet_details: [{type, data}, …]}}]`, one entry
 * per allowed bet type. A bet type without an entry is not allowed.
 */
export const BonusConditions = Type.Array(
  Type.Object(
    {
      type: Type.Literal('bet_details'),
      data: Type.Object(
        { bet_details: Type.Array(BetDetailsEntry, { minItems: 1, maxItems: 3 }) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { maxItems: 1 },
);
/** See {@link BonusConditions}. */
export type BonusConditions = Static<typeof BonusConditions>;

// ---------------------------------------------------------------------------------------------------------------
// Freebets
// ---------------------------------------------------------------------------------------------------------------

/**
 * Status of a freebet (the callback contract, "Freebet" states): `available` → `reserved` (a bet was placed with it) → `used`
 * (the bet was settled), or back to `available` (the bet was declined or failed); `cancelled` by the partner;
 * `expired`: available past its `expires_at`.
 */
export const FreebetStatus = Type.Union([
  Type.Literal('available'),
  Type.Literal('reserved'),
  Type.Literal('used'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);
/** See {@link FreebetStatus}. */
export type FreebetStatus = Static<typeof FreebetStatus>;

/** Body of `POST /freebet/create` (and one item of the bulk create). At least one condition is required. */
export const CreateFreebetBody = Type.Object(
  {
    player_id: BonusPlayerId,
    currency_code: BonusCurrency,
    amount: BonusMoney,
    expires_at: Type.Optional(BonusExpiry),
    conditions: Type.Array(BonusConditions.items, { minItems: 1, maxItems: 1 }),
    foreign_params: Type.Optional(ForeignParams),
    idempotence_id: Type.Optional(IdempotenceId),
  },
  { additionalProperties: false },
);
/** See {@link CreateFreebetBody}. */
export type CreateFreebetBody = Static<typeof CreateFreebetBody>;

/** Body of `POST /freebet/create/bulk`: up to 1000 items, each answered on its own. */
export const BulkCreateFreebetsBody = Type.Object(
  { items: Type.Array(CreateFreebetBody, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);
/** See {@link BulkCreateFreebetsBody}. */
export type BulkCreateFreebetsBody = Static<typeof BulkCreateFreebetsBody>;

/** Body of `POST /freebet/update`: the fields to change of an `available` freebet. */
export const UpdateFreebetBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    amount: Type.Optional(BonusMoney),
    expires_at: Type.Optional(BonusExpiry),
    conditions: Type.Optional(Type.Array(BonusConditions.items, { minItems: 1, maxItems: 1 })),
    foreign_params: Type.Optional(ForeignParams),
  },
  { additionalProperties: false },
);
/** See {@link UpdateFreebetBody}. */
export type UpdateFreebetBody = Static<typeof UpdateFreebetBody>;

/** Body of `POST /freebet/cancel`. */
export const CancelBonusBody = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
/** See {@link CancelBonusBody}. */
export type CancelBonusBody = Static<typeof CancelBonusBody>;

/** A freebet record. `amount` with 6 decimals; times RFC 3339 (UTC). */
export const FreebetView = Type.Object({
  id: Type.String(),
  player_id: Type.String(),
  currency_code: Type.String(),
  amount: Type.String({ description: 'decimal string, 6 decimals' }),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  conditions: BonusConditions,
  foreign_params: ForeignParams,
  status: FreebetStatus,
  used_on_bet_id: Type.Union([Type.String(), Type.Null()], {
    description: 'the bet the freebet is reserved for or was used on',
  }),
  used_at: Type.Union([Type.String(), Type.Null()], { description: 'when the bet was settled' }),
  idempotence_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
/** See {@link FreebetView}. */
export type FreebetView = Static<typeof FreebetView>;

/** The error of one item of a bulk answer: the error body's `error` (code, message, details). */
export const BonusItemError = Type.Object({
  code: Type.String(),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
});

/**
 * Answer of `POST /freebet/create/bulk` (200): one result per item, in order. `status` is what the single create
 * would have answered: 201 created, 200 an idempotent repeat, 4xx with `error`.
 */
export const BulkCreateFreebetsResponse = Type.Object({
  items: Type.Array(
    Type.Object({
      index: Type.Integer(),
      status: Type.Integer(),
      freebet: Type.Optional(FreebetView),
      error: Type.Optional(BonusItemError),
    }),
  ),
});
/** See {@link BulkCreateFreebetsResponse}. */
export type BulkCreateFreebetsResponse = Static<typeof BulkCreateFreebetsResponse>;

/** Query of the bonus lists: by player, by status, `limit` 1..500 (default 100), `cursor` from the last page. */
export const BonusListQuery = Type.Object(
  {
    player_id: Type.Optional(BonusPlayerId),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
/** See {@link BonusListQuery}. */
export type BonusListQuery = Static<typeof BonusListQuery>;

/** A page of freebets, newest first. */
export const FreebetPage = Type.Object({
  items: Type.Array(FreebetView),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

// ---------------------------------------------------------------------------------------------------------------
// Bet insurance
// ---------------------------------------------------------------------------------------------------------------

/**
 * Status of a bet insurance (the callback contract, "Bet insurance" states): `available` → `applied` (its bet was accepted) →
 * `paid` (the bet lost within `max_odds_count_lose`: `/bet/insurances/accepted`) or `declined` (won, refunded, or
 * too many lost legs: `/bet/insurances/decline`); `paid` → `cancelled` when the bet is unsettled
 * (`/bet/insurances/cancel`); a cancelled or declined insurance is decided again when its bet is settled again.
 * `expired`: available past its `expires_at`.
 */
export const InsuranceStatus = Type.Union([
  Type.Literal('available'),
  Type.Literal('applied'),
  Type.Literal('paid'),
  Type.Literal('declined'),
  Type.Literal('cancelled'),
  Type.Literal('expired'),
]);
/** See {@link InsuranceStatus}. */
export type InsuranceStatus = Static<typeof InsuranceStatus>;

/** The payout strategy (the callback contract, "Payout rules" `strategies`): its type and the most lost legs that still pay. */
export const InsuranceStrategies = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('amount'), Type.Literal('percent')])),
    max_odds_count_lose: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  },
  { additionalProperties: false },
);

const insuranceFields = {
  expires_at: Type.Optional(BonusExpiry),
  conditions: Type.Optional(BonusConditions),
  stake_amount_range: Type.Optional(Type.Union([MoneyRange, Type.Null()])),
  type: Type.Union([Type.Literal('amount'), Type.Literal('percent')], {
    description:
      'amount: fixed refund (RefundAmountAmountRule); percent: percent of the stake (RefundAmountPercentRule)',
  }),
  amount: Type.Optional(BonusMoney),
  percent: Type.Optional(BonusDecimal12),
  max_amount: Type.Optional(Type.Union([BonusDecimal12, Type.Null()])),
  strategies: Type.Optional(InsuranceStrategies),
  foreign_params: Type.Optional(ForeignParams),
};

/**
 * Body of `POST /insurance/create` (the callback contract, "Bet insurance conditions"): bound to a player and a currency; `type`
 * `amount` needs `amount`, `percent` needs `percent` (in (0, 100], up to 12 decimals) and may cap it with
 * `max_amount`; `strategies.max_odds_count_lose` is the most lost legs that still pay (absent: no limit).
 */
export const CreateInsuranceBody = Type.Object(
  {
    player_id: BonusPlayerId,
    currency_code: BonusCurrency,
    ...insuranceFields,
    idempotence_id: Type.Optional(IdempotenceId),
  },
  { additionalProperties: false },
);
/** See {@link CreateInsuranceBody}. */
export type CreateInsuranceBody = Static<typeof CreateInsuranceBody>;

/**
 * Body of `POST /insurance/update`: the fields to change of an `available` insurance. The payout rule is checked
 * whole after the change (e.g. switching `type` to `percent` needs a `percent`).
 */
export const UpdateInsuranceBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    currency_code: Type.Optional(BonusCurrency),
    ...insuranceFields,
    type: Type.Optional(insuranceFields.type),
  },
  { additionalProperties: false },
);
/** See {@link UpdateInsuranceBody}. */
export type UpdateInsuranceBody = Static<typeof UpdateInsuranceBody>;

/** A bet insurance record. `amount`, `refund_amount` with 6 decimals; `percent`, `max_amount` with 12. */
export const InsuranceView = Type.Object({
  id: Type.String(),
  player_id: Type.String(),
  currency_code: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  conditions: BonusConditions,
  stake_amount_range: Type.Union([MoneyRange, Type.Null()]),
  type: Type.Union([Type.Literal('amount'), Type.Literal('percent')]),
  amount: Type.Union([Type.String(), Type.Null()]),
  percent: Type.Union([Type.String(), Type.Null()]),
  max_amount: Type.Union([Type.String(), Type.Null()]),
  strategies: Type.Object({
    type: Type.Union([Type.Literal('amount'), Type.Literal('percent')]),
    max_odds_count_lose: Type.Union([Type.Integer(), Type.Null()]),
  }),
  foreign_params: ForeignParams,
  status: InsuranceStatus,
  bet_id: Type.Union([Type.String(), Type.Null()], { description: 'the insured bet' }),
  refund_amount: Type.Union([Type.String(), Type.Null()], { description: 'paid refund, while paid' }),
  applied_at: Type.Union([Type.String(), Type.Null()]),
  resolved_at: Type.Union([Type.String(), Type.Null()], { description: 'when it was last paid or declined' }),
  idempotence_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
/** See {@link InsuranceView}. */
export type InsuranceView = Static<typeof InsuranceView>;

/** A page of insurances, newest first. */
export const InsurancePage = Type.Object({
  items: Type.Array(InsuranceView),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/**
 * One open item of an insurance refund for the operator (the insurance refund rule: a refund is paid at most once):
 * - `refund_kept_not_earned`: the refund stays with the player (the partner could not take it back: it opted out of
 *   `/bet/insurances/cancel` or does not implement it) though the bet's corrected result no longer earns it;
 * - `refund_not_paid`: the bet's result earns a refund the partner never credited (it does not implement
 *   `/bet/insurances/accepted`).
 * `amount` is the refund, 6 decimals, in `currency_code`; `since` when the item opened (ISO 8601).
 */
export const InsuranceOpenItemView = Type.Object(
  {
    white_label_id: Type.String(),
    bet_id: Type.String(),
    insurance_id: Type.String(),
    player_id: Type.String(),
    kind: Type.Union([Type.Literal('refund_kept_not_earned'), Type.Literal('refund_not_paid')]),
    amount: Type.String({ description: 'the refund, 6 decimals' }),
    currency_code: Type.String(),
    since: Type.String({ description: 'when the item opened (ISO 8601)' }),
  },
  { additionalProperties: false },
);
/** See {@link InsuranceOpenItemView}. */
export type InsuranceOpenItemView = Static<typeof InsuranceOpenItemView>;

/** Query of `GET /admin/insurance-open-items`: a white label filter and a page size 1–1000 (default 100). */
export const InsuranceOpenItemQuery = Type.Object(
  {
    white_label_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);
/** See {@link InsuranceOpenItemQuery}. */
export type InsuranceOpenItemQuery = Static<typeof InsuranceOpenItemQuery>;

/** Answer of `GET /admin/insurance-open-items`: the insurance refunds to settle by hand, newest first. */
export const InsuranceOpenItemList = Type.Object(
  { items: Type.Array(InsuranceOpenItemView) },
  {
    title: 'InsuranceOpenItemList',
    examples: [
      {
        items: [
          {
            white_label_id: 'b3c1d2e4-0000-4000-8000-000000000001',
            bet_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
            insurance_id: '4f3e2d1c-0b9a-4876-8543-210fedcba987',
            player_id: 'player-42',
            kind: 'refund_kept_not_earned',
            amount: '4.000000',
            currency_code: 'EUR',
            since: '2024-05-01T18:02:11.000Z',
          },
        ],
      },
    ],
  },
);
/** See {@link InsuranceOpenItemList}. */
export type InsuranceOpenItemList = Static<typeof InsuranceOpenItemList>;

/** Path of the partner's bonus routes on one freebet, insurance or bet boost (`…/{id}`). */
export const BonusIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
/** See {@link BonusIdParams}. */
export type BonusIdParams = Static<typeof BonusIdParams>;

// ---------------------------------------------------------------------------------------------------------------
// Bet boosts
// ---------------------------------------------------------------------------------------------------------------

/**
 * Body of `POST /bet-boosts`: a multiplier on the total odds (the boosted odds rule; above 1, at most 100, 6 decimals) for
 * `quantity` bets of the white label's players (or of one player), under conditions. `remaining_quantity` falls
 * when a bet takes the boost and rises again when that bet is declined.
 */
export const CreateBetBoostBody = Type.Object(
  {
    multiplier: Type.String({ pattern: DECIMAL12, description: 'e.g. "1.1" for +10 % on the total odds' }),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    conditions: Type.Optional(BonusConditions),
    player_id: Type.Optional(Type.Union([BonusPlayerId, Type.Null()], { description: 'null: every player' })),
    expires_at: Type.Optional(BonusExpiry),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    foreign_params: Type.Optional(ForeignParams),
    idempotence_id: Type.Optional(IdempotenceId),
  },
  { additionalProperties: false },
);
/** See {@link CreateBetBoostBody}. */
export type CreateBetBoostBody = Static<typeof CreateBetBoostBody>;

/**
 * A bet boost record; `status` is `active`, `exhausted` (no quantity left), `expired` or `cancelled` (by the
 * partner: no bet takes it any more).
 */
export const BetBoostView = Type.Object({
  id: Type.String(),
  player_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  multiplier: Type.String({ description: 'decimal string, 6 decimals' }),
  conditions: BonusConditions,
  quantity: Type.Integer(),
  remaining_quantity: Type.Integer(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  foreign_params: ForeignParams,
  status: Type.Union([
    Type.Literal('active'),
    Type.Literal('exhausted'),
    Type.Literal('expired'),
    Type.Literal('cancelled'),
  ]),
  idempotence_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
/** See {@link BetBoostView}. */
export type BetBoostView = Static<typeof BetBoostView>;

/** A page of bet boosts, newest first. */
export const BetBoostPage = Type.Object({
  items: Type.Array(BetBoostView),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
