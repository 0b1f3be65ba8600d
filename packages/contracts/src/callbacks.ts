/**
 * Callback bodies that Bookie sends to the partner's callback server (the callback contract, "Bet callback body", "Which fields
 * each callback carries", "Endpoints", "Errors", "Events"; the rules in docs/decisions.md), as TypeBox schemas with their static
 * types. The one source for the server's callback outbox and the partner SDK's handler.
 *
 * Wire rules used throughout:
 * - money amounts and bet odds are decimal strings with exactly 6 decimals (the decimal strings rule), e.g. `"10.000000"`;
 * - `bet_type` is 1 single, 2 express, 3 system (the callback bet type rule); `settle_type` 1 win, 2 refund, 3 lost (the settle type rule);
 * - odd status 0–7 (the odd statuses in callbacks rule); competitor `type` 1 person, 2 team (the competitor type rule);
 * - `bet_freebet_id`, `bet_insurance_id` and `bet_boost_id` are always present on the bodies that carry them and
 *   are `""` when none applies (the callback contract says so for `bet_freebet_id`; Bookie writes the other two the same way);
 * - every body is closed (`additionalProperties: false`): exactly the fields of the callback contract's table.
 *
 * @packageDocumentation
 */
import { RESTRICTION_TYPES } from '@bookie/core';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import {
  codeBounds,
  describeCodes,
  FIXTURE_STATUS_CODES,
  ODD_STATUS_CODES,
  SETTLE_TYPE_CODES,
} from './status-codes.js';

// ---------------------------------------------------------------------------------------------------------------
// Paths and headers
// ---------------------------------------------------------------------------------------------------------------

/**
 * Paths of the callbacks the partner implements, relative to its callback server (the callback contract, "Endpoints";
 * the heartbeat and the cash-out callbacks of docs/decisions.md; `insuranceCancel` is docs/adr/0009-bonuses.md). All
 * are `POST`; success is any 2xx, 204 canonical (docs/decisions.md, "Success is any 2xx").
 */
export const CALLBACK_PATHS = {
  place: '/bet/place',
  accept: '/bet/accept',
  decline: '/bet/decline',
  settle: '/bet/settle',
  unsettle: '/bet/unsettle',
  insuranceAccepted: '/bet/insurances/accepted',
  insuranceDeclined: '/bet/insurances/decline',
  /** Bookie's addition (docs/adr/0009-bonuses.md): takes back a paid insurance refund when its bet is unsettled. */
  insuranceCancel: '/bet/insurances/cancel',
  heartbeat: '/heartbeat',
  cashOutAccepted: '/bet/cash-out-orders/accepted',
  cashOutDeclined: '/bet/cash-out-orders/declined',
} as const;

/** Name of a callback: a key of {@link CALLBACK_PATHS}. */
export type CallbackName = keyof typeof CALLBACK_PATHS;

/** A callback path: a value of {@link CALLBACK_PATHS}. */
export type CallbackPath = (typeof CALLBACK_PATHS)[CallbackName];

/** All callback names, in the order of {@link CALLBACK_PATHS}. */
export const CALLBACK_NAMES = Object.keys(CALLBACK_PATHS) as CallbackName[];

/**
 * Header names of a callback request (the callback contract, "Which fields each callback carries", the callback requests rule, the callback signing rule), lower case
 * as Node reports them. `Foreign-Params` is a JSON object (the `params` of the player's session token, `{}` when
 * none); the three `webhook-*` headers are the Standard Webhooks signature (the callback signing rule; `webhook-id` = `request_id`).
 */
export const CALLBACK_HEADERS = {
  foreignParams: 'foreign-params',
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------------------------------

/** Pattern of a non-negative decimal string with exactly 6 decimals (the decimal strings rule). */
export const DECIMAL6_PATTERN = '^(0|[1-9][0-9]*)\\.[0-9]{6}$';

/** Pattern of an ISO 8601 date-time with seconds and an offset (`Z` or `±hh:mm`), e.g. `2024-05-01T12:00:00+00:00`. */
export const DATE_TIME_OFFSET_PATTERN =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$';

/** Pattern of a UUID (any version), lower or upper case. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A non-negative money amount or odds value: decimal string with exactly 6 decimals (the decimal strings rule). */
export const Decimal6 = Type.String({ pattern: DECIMAL6_PATTERN, description: 'decimal string, 6 decimals' });

/** A date-time: ISO 8601 with an offset (the callback contract's `bet_created_at`, `odd_updated_at`). */
export const DateTimeWithOffset = Type.String({
  pattern: DATE_TIME_OFFSET_PATTERN,
  description: 'ISO 8601 date-time with offset',
});

/** `request_id`: one UUID per logical callback, resent unchanged on every retry; the idempotency key (the callback requests rule). */
export const RequestId = Type.String({
  pattern: UUID_PATTERN,
  description: 'UUID, the idempotency key (the callback requests rule)',
});

/** A non-empty identifier string (bet, player, order ids). */
const Id = Type.String({ minLength: 1 });

/** An optional identifier: a string, `""` when none applies. */
const OptionalId = Type.String({ description: '"" when none' });

// ---------------------------------------------------------------------------------------------------------------
// Shared objects
// ---------------------------------------------------------------------------------------------------------------

/** Competitor reference `{id, type}`; `type` 1 person, 2 team (the callback contract, the competitor type rule). */
export const CallbackCompetitor = Type.Object(
  { id: Type.String(), type: Type.Union([Type.Literal(1), Type.Literal(2)]) },
  { additionalProperties: false },
);
/** Competitor reference `{id, type}` (the competitor type rule). */
export type CallbackCompetitor = Static<typeof CallbackCompetitor>;

/**
 * `meta` of a bet odd (the callback contract, "Bet odd"): the `sport_event_info_*` keys are always written; the short aliases
 * (`sport_id`, `tournament_id`, `market_type`, `provider_id`) are optional. Other keys are tolerated (the spec lists
 * "also seen" keys, so the set is open).
 */
export const BetOddMeta = Type.Object(
  {
    sport_event_info_provider_id: Type.String(),
    sport_event_info_sport_id: Type.String(),
    sport_event_info_tournament_id: Type.String(),
    sport_event_info_market_type: Type.String(),
    sport_event_info_state: Type.Union([Type.Literal('live'), Type.Literal('prematch')]),
    sport_event_info_start_time: DateTimeWithOffset,
    sport_event_info_competitors: Type.Array(CallbackCompetitor),
    sport_id: Type.Optional(Type.String()),
    tournament_id: Type.Optional(Type.String()),
    market_type: Type.Optional(Type.String()),
    provider_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
/** `meta` of a bet odd (the callback contract, "Bet odd"). */
export type BetOddMeta = Static<typeof BetOddMeta>;

/**
 * A selection of a bet (the callback contract, "Bet odd"): `odd_ratio` decimal string with 6 decimals (the decimal strings rule), `odd_status` 0–7 (the odd statuses in callbacks rule),
 * `match_id` the sport event id, `status_reason` optional.
 */
export const BetOdd = Type.Object(
  {
    odd_id: Type.String(),
    odd_ratio: Decimal6,
    odd_status: Type.Integer({
      ...codeBounds(ODD_STATUS_CODES),
      description: describeCodes(ODD_STATUS_CODES),
    }),
    match_id: Type.String(),
    match_status: Type.Integer({
      minimum: 0,
      description: `the sport event's fixture status: ${describeCodes(FIXTURE_STATUS_CODES)}`,
    }),
    market_id: Type.String(),
    odd_updated_at: DateTimeWithOffset,
    status_reason: Type.Optional(Type.String()),
    meta: BetOddMeta,
  },
  { additionalProperties: false },
);
/** A selection of a bet (the callback contract, "Bet odd"). */
export type BetOdd = Static<typeof BetOdd>;

/**
 * A restriction `{type, context}` (the callback contract, "Restriction"): `type` one of the 24 types of core's
 * `RESTRICTION_TYPES`; `context` an object (typed per type by core's `RestrictionContexts`), except that `max_bet`
 * is a JSON number in callbacks, as the callback contract shows it (a decimal string in the frame and the MTS and advisory contract APIs).
 */
export const CallbackRestriction = Type.Object(
  {
    type: Type.Union(RESTRICTION_TYPES.map((t) => Type.Literal(t))),
    context: Type.Object(
      {
        max_bet: Type.Optional(
          Type.Number({ description: 'a JSON number in callbacks, e.g. 5 or 9.333333' }),
        ),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: false },
);
/** A restriction `{type, context}` (the callback contract, "Restriction"). */
export type CallbackRestriction = Static<typeof CallbackRestriction>;

/**
 * An element of `bet_bet_builder_odds`: one bet builder of the bet (the bet builder rule; docs/decisions.md D60), a
 * selection made of inner odds on one sport event at one combined odds value. `bet_builder_index` is the builder's
 * index within the bet (0, 1, …); `match_id` its sport event; `odd_ratio` the combined odds (6 decimals; for
 * `/bet/place` and `/bet/accept` the odds it was accepted at, a boost excluded); `odd_status` and `status_reason`
 * its result as a selection's (0 not resulted, then the odd status codes: a builder wins when every inner leg wins);
 * `probability` the model's probability that every inner leg wins at placement (12 decimals); `inner_odds` the
 * inner legs in the `bet_odds` element shape, each with the feed's odds of the leg at placement in `odd_ratio`
 * (information: the builder is priced as a whole). A builder is never in `bet_odds`.
 */
export const BetBuilderOdd = Type.Object(
  {
    bet_builder_index: Type.Integer({ minimum: 0 }),
    match_id: Type.String(),
    odd_ratio: Decimal6,
    odd_status: Type.Integer({
      ...codeBounds(ODD_STATUS_CODES),
      description: describeCodes(ODD_STATUS_CODES),
    }),
    status_reason: Type.Optional(Type.String()),
    probability: Type.String({ pattern: '^(0|1)\\.\\d{12}$' }),
    inner_odds: Type.Array(BetOdd, { minItems: 1 }),
  },
  { additionalProperties: false },
);
/** An element of `bet_bet_builder_odds`: a bet builder, its combined odds and its inner odds (D60). */
export type BetBuilderOdd = Static<typeof BetBuilderOdd>;

// ---------------------------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------------------------

const placeFields = {
  request_id: RequestId,
  bet_id: Id,
  bet_player_id: Id,
  bet_type: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
    description: '1 single, 2 express, 3 system (the callback bet type rule)',
  }),
  bet_stake: Decimal6,
  bet_freebet_id: OptionalId,
  bet_insurance_id: OptionalId,
  bet_boost_id: OptionalId,
  total_odds_value: Decimal6,
  base_odds_value: Decimal6,
  bet_odds: Type.Array(BetOdd, {
    description:
      'the plain odds selections; empty for a bet of builders only (they are in bet_bet_builder_odds)',
  }),
  bet_bet_builder_odds: Type.Array(BetBuilderOdd),
  bet_system_sizes: Type.Array(Type.Integer({ minimum: 1 })),
  bet_created_at: DateTimeWithOffset,
  competitors: Type.Array(CallbackCompetitor),
};

/**
 * Body of `POST /bet/place` (the callback contract): hold `bet_stake` (decimal string, 6 decimals) on the player's balance.
 * `total_odds_value` includes a boost when one applies, `base_odds_value` is without it. `bet_system_sizes` follows
 * the MTS and advisory contract's rule for every type: `[1]` for a single, `[n]` for an express of n selections, the chosen sizes for a
 * system. Answer 204, or 400 with a the callback errors rule error body.
 */
export const BetPlaceBody = Type.Object(placeFields, { additionalProperties: false, $id: 'BetPlaceBody' });
/** Body of `POST /bet/place` (the callback contract). */
export type BetPlaceBody = Static<typeof BetPlaceBody>;

/** Body of `POST /bet/accept` (the callback contract): the same fields as `/bet/place`; capture the held stake. */
export const BetAcceptBody = Type.Object(placeFields, { additionalProperties: false, $id: 'BetAcceptBody' });
/** Body of `POST /bet/accept` (the callback contract). */
export type BetAcceptBody = Static<typeof BetAcceptBody>;

/** Body of `POST /bet/decline` (the callback contract): release the held stake; `restrictions` say why. */
export const BetDeclineBody = Type.Object(
  { request_id: RequestId, bet_id: Id, bet_player_id: Id, restrictions: Type.Array(CallbackRestriction) },
  { additionalProperties: false, $id: 'BetDeclineBody' },
);
/** Body of `POST /bet/decline` (the callback contract). */
export type BetDeclineBody = Static<typeof BetDeclineBody>;

/**
 * Body of `POST /bet/settle` (the callback contract): credit `settle_amount` (decimal string, 6 decimals; `"0.000000"` for a lost
 * bet). `settle_type` 1 win, 2 refund, 3 lost (the settle type rule). After an unsettle the next settle carries the new full amount
 * (the full unsettle rule).
 */
export const BetSettleBody = Type.Object(
  {
    request_id: RequestId,
    bet_id: Id,
    bet_player_id: Id,
    bet_boost_id: OptionalId,
    total_odds_value: Decimal6,
    base_odds_value: Decimal6,
    bet_odds: Type.Array(BetOdd, {
      description:
        'the plain odds selections; empty for a bet of builders only (they are in bet_bet_builder_odds)',
    }),
    bet_bet_builder_odds: Type.Array(BetBuilderOdd),
    settle_amount: Decimal6,
    settle_type: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
      description: `${describeCodes(SETTLE_TYPE_CODES)} (the settle type rule)`,
    }),
    restrictions: Type.Array(CallbackRestriction),
  },
  { additionalProperties: false, $id: 'BetSettleBody' },
);
/** Body of `POST /bet/settle` (the callback contract, the settle type rule, the full unsettle rule). */
export type BetSettleBody = Static<typeof BetSettleBody>;

/**
 * Body of `POST /bet/unsettle` (the callback contract): debit `unsettle_amount` (decimal string, 6 decimals), a full reversal of the
 * previous settle (the full unsettle rule; may be `"0.000000"`).
 */
export const BetUnsettleBody = Type.Object(
  { request_id: RequestId, bet_id: Id, bet_player_id: Id, unsettle_amount: Decimal6 },
  { additionalProperties: false, $id: 'BetUnsettleBody' },
);
/** Body of `POST /bet/unsettle` (the callback contract, the full unsettle rule). */
export type BetUnsettleBody = Static<typeof BetUnsettleBody>;

/**
 * Body of `POST /bet/insurances/accepted` (the callback contract): credit `refund_amount` (decimal string, 6 decimals; the insurance payout rule).
 * It carries no player id: the partner knows the player from the bet.
 */
export const InsuranceAcceptedBody = Type.Object(
  { request_id: RequestId, bet_id: Id, bet_insurance_id: Id, refund_amount: Decimal6 },
  { additionalProperties: false, $id: 'InsuranceAcceptedBody' },
);
/** Body of `POST /bet/insurances/accepted` (the callback contract, the insurance payout rule). */
export type InsuranceAcceptedBody = Static<typeof InsuranceAcceptedBody>;

/** Body of `POST /bet/insurances/decline` (the callback contract): the insurance is declined; no money moves. */
export const InsuranceDeclinedBody = Type.Object(
  { request_id: RequestId, bet_id: Id, bet_insurance_id: Id },
  { additionalProperties: false, $id: 'InsuranceDeclinedBody' },
);
/** Body of `POST /bet/insurances/decline` (the callback contract). */
export type InsuranceDeclinedBody = Static<typeof InsuranceDeclinedBody>;

/**
 * Body of `POST /bet/insurances/cancel` (Bookie's addition for the callback contract "paid → cancelled: platform requests
 * cancellation of the accrued insurance"; docs/adr/0009-bonuses.md): debit `refund_amount` (decimal string, 6
 * decimals), the full `refund_amount` of the `/bet/insurances/accepted` it reverses, as `/bet/unsettle` reverses a
 * settle (the full unsettle rule). Sent when an insured bet whose insurance was paid is unsettled; the next settle of the bet decides the
 * insurance again. At every moment Σ accepted − Σ cancel = the refund currently paid.
 */
export const InsuranceCancelBody = Type.Object(
  { request_id: RequestId, bet_id: Id, bet_insurance_id: Id, refund_amount: Decimal6 },
  { additionalProperties: false, $id: 'InsuranceCancelBody' },
);
/** Body of `POST /bet/insurances/cancel` (docs/adr/0009-bonuses.md). */
export type InsuranceCancelBody = Static<typeof InsuranceCancelBody>;

/**
 * Body of `POST /bet/cash-out-orders/accepted` (the cash-out callbacks rule; the MTS and advisory contract, "Cash out rules"): `amount` is the part of the
 * stake cashed out, `refund_amount` what the player receives and the partner credits (both decimal strings, 6
 * decimals).
 */
export const CashOutAcceptedBody = Type.Object(
  { request_id: RequestId, bet_id: Id, cash_out_order_id: Id, amount: Decimal6, refund_amount: Decimal6 },
  { additionalProperties: false, $id: 'CashOutAcceptedBody' },
);
/** Body of `POST /bet/cash-out-orders/accepted` (the cash-out callbacks rule). */
export type CashOutAcceptedBody = Static<typeof CashOutAcceptedBody>;

/**
 * Body of `POST /bet/cash-out-orders/declined` (the cash-out callbacks rule): the listed orders, accepted before, are declined
 * afterwards; the partner takes back what it credited for each and the cashed-out stake returns to the bet.
 */
export const CashOutDeclinedBody = Type.Object(
  { request_id: RequestId, bet_id: Id, cash_out_order_ids: Type.Array(Id) },
  { additionalProperties: false, $id: 'CashOutDeclinedBody' },
);
/** Body of `POST /bet/cash-out-orders/declined` (the cash-out callbacks rule). */
export type CashOutDeclinedBody = Static<typeof CashOutDeclinedBody>;

/**
 * Body of `POST /heartbeat` (the heartbeat rule): empty. It carries no `request_id`, so heartbeats are not idempotent
 * deliveries; answer 204.
 */
export const HeartbeatBody = Type.Null({
  $id: 'HeartbeatBody',
  description: 'empty body (the heartbeat rule)',
});
/** Body of `POST /heartbeat` (the heartbeat rule): none. */
export type HeartbeatBody = Static<typeof HeartbeatBody>;

/** The body schema of each callback, by name. `heartbeat` has no body (`null`). */
export const CALLBACK_BODIES = {
  place: BetPlaceBody,
  accept: BetAcceptBody,
  decline: BetDeclineBody,
  settle: BetSettleBody,
  unsettle: BetUnsettleBody,
  insuranceAccepted: InsuranceAcceptedBody,
  insuranceDeclined: InsuranceDeclinedBody,
  insuranceCancel: InsuranceCancelBody,
  heartbeat: HeartbeatBody,
  cashOutAccepted: CashOutAcceptedBody,
  cashOutDeclined: CashOutDeclinedBody,
} as const satisfies Record<CallbackName, TSchema>;

/** The static body type of each callback, by name. */
export interface CallbackBodies {
  place: BetPlaceBody;
  accept: BetAcceptBody;
  decline: BetDeclineBody;
  settle: BetSettleBody;
  unsettle: BetUnsettleBody;
  insuranceAccepted: InsuranceAcceptedBody;
  insuranceDeclined: InsuranceDeclinedBody;
  insuranceCancel: InsuranceCancelBody;
  heartbeat: HeartbeatBody;
  cashOutAccepted: CashOutAcceptedBody;
  cashOutDeclined: CashOutDeclinedBody;
}

/** A callback body that carries a `request_id` (every callback but the heartbeat). */
export type IdempotentCallbackName = Exclude<CallbackName, 'heartbeat'>;

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

/**
 * The codes a partner may answer `/bet/place` with that Bookie treats as final (the callback errors rule): the bet ends as Place
 * Error with a matching restriction. Any other code, a 5xx, a timeout or a network error is retried.
 * - `not_enough_balance`: `data.actual_balance` (decimal string, 6 decimals);
 * - `player_limit_crossed`: `data.types` (array of strings);
 * - `auth_session_unknown`, `auth_credentials_expired` (the latter also ends the player's session, the player sessions rule).
 */
export const FINAL_PLACE_ERROR_CODES = [
  'not_enough_balance',
  'player_limit_crossed',
  'auth_session_unknown',
  'auth_credentials_expired',
] as const;
/** A final `/bet/place` error code (the callback errors rule). */
export type FinalPlaceErrorCode = (typeof FINAL_PLACE_ERROR_CODES)[number];

/**
 * The error body of a failed callback, sent with status 400 (the callback contract, "Errors", the callback errors rule):
 * `{"error": {"code": string, "data"?: object}}`.
 */
export const CallbackErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ minLength: 1 }),
        data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'CallbackErrorBody' },
);
/** The error body of a failed callback (the callback errors rule). */
export type CallbackErrorBody = Static<typeof CallbackErrorBody>;

// ---------------------------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------------------------

/** One schema violation of a callback body: `field` is a path like `bet_odds[0].odd_ratio` (`""` for the root). */
export interface CallbackBodyIssue {
  field: string;
  message: string;
}

const compiled = new Map<CallbackName, TypeCheck<TSchema>>();

function checker(name: CallbackName): TypeCheck<TSchema> {
  let c = compiled.get(name);
  if (!c) {
    c = TypeCompiler.Compile(CALLBACK_BODIES[name] as TSchema);
    compiled.set(name, c);
  }
  return c;
}

function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

/**
 * Checks a parsed JSON value against the body schema of callback `name` (the callback contract, the rules in docs/decisions.md).
 *
 * @returns the violations, at most `limit` (default 10); empty when the body is valid.
 */
export function callbackBodyIssues(name: CallbackName, value: unknown, limit = 10): CallbackBodyIssue[] {
  const c = checker(name);
  if (c.Check(value)) return [];
  const out: CallbackBodyIssue[] = [];
  for (const e of c.Errors(value)) {
    out.push({ field: fieldOf(e.path), message: e.message });
    if (out.length >= limit) break;
  }
  return out;
}

/** True when `value` is a valid body of callback `name` (a type guard). */
export function isCallbackBody<K extends CallbackName>(name: K, value: unknown): value is CallbackBodies[K] {
  return checker(name).Check(value);
}
