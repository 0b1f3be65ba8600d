/**
 * The partner REST operations of the callback contract's list that are not bonuses or sessions (the environments and tools rule): dictionaries,
 * the white label's bets (history, one bet in the shape (see "partner-reported bets" in docs/decisions.md), cancel, void) and bet reports.
 *
 * @packageDocumentation
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CashOutOrder } from './cash-out.js';
import { BET_STATUS_CODES, describeCodes, ODD_STATUS_CODES, SETTLE_TYPE_CODES } from './status-codes.js';

/**
 * The one error body of Bookie's HTTP APIs: `{"error": {"code", "message", "details"}}` (the partner-reported bets rule). A 400
 * names the field in `details.field` (`querystring.status`, `body.reason`, …).
 */
export const ApiErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'validation_error, not_found, conflict, unauthorized, forbidden, …' }),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  {
    $id: 'ApiErrorBody',
    examples: [
      {
        error: {
          code: 'validation_error',
          message: 'querystring.status: must be one of 1, 2, 3, 4, 5, 6, 7, 10, 11',
          details: { field: 'querystring.status' },
        },
      },
    ],
  },
);
/** The one error body of Bookie's HTTP APIs. */
export type ApiErrorBody = Static<typeof ApiErrorBody>;

/** The error answers of an authenticated operation, keyed by HTTP status, for a route's `response` schema. */
export function errorAnswers<S extends number>(...statuses: S[]): Record<S, TSchema> {
  const out = {} as Record<S, TSchema>;
  for (const s of statuses) out[s] = Type.Ref('ApiErrorBody');
  return out;
}

const Money = Type.Object(
  {
    value: Type.String({ description: 'decimal string, 6 decimals' }),
    currency_code: Type.String({ description: 'ISO 4217' }),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------------------------
// Dictionaries

/** The dictionaries of `GET /dictionaries/{name}`. */
export const DICTIONARY_NAMES = [
  'sports',
  'tournaments',
  'market-types',
  'restriction-types',
  'bet-statuses',
  'currencies',
] as const;
/** A dictionary name. */
export type DictionaryName = (typeof DICTIONARY_NAMES)[number];

/** The locales dictionary names are written in (`?locale=`); English is the default. */
export const DICTIONARY_LOCALES = ['en', 'de', 'es'] as const;
/** A dictionary locale. */
export type DictionaryLocale = (typeof DICTIONARY_LOCALES)[number];

/** Path parameters of `GET /dictionaries/{name}`. */
export const DictionaryParams = Type.Object({
  name: Type.Union(
    DICTIONARY_NAMES.map((n) => Type.Literal(n)),
    { description: 'which dictionary' },
  ),
});

/** Query of `GET /dictionaries/{name}`. */
export const DictionaryQuery = Type.Object(
  {
    locale: Type.Optional(
      Type.Union(
        DICTIONARY_LOCALES.map((l) => Type.Literal(l)),
        { description: 'language of the names; default en' },
      ),
    ),
  },
  { additionalProperties: false },
);
/** Query of `GET /dictionaries/{name}`. */
export type DictionaryQuery = Static<typeof DictionaryQuery>;

/** One entry of a dictionary: its id (a string, or the integer code of a bet status) and its name in the locale. */
export const DictionaryItem = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Integer()]),
    name: Type.String(),
    sport_id: Type.Optional(Type.String({ description: 'tournaments: the sport of the tournament' })),
  },
  { additionalProperties: false },
);
/** One dictionary entry. */
export type DictionaryItem = Static<typeof DictionaryItem>;

/** Answer of `GET /dictionaries/{name}`. */
export const Dictionary = Type.Object(
  {
    dictionary: Type.String(),
    locale: Type.String(),
    items: Type.Array(DictionaryItem),
  },
  {
    examples: [
      {
        dictionary: 'bet-statuses',
        locale: 'de',
        items: [
          { id: 1, name: 'Angenommen' },
          { id: 2, name: 'Abgelehnt' },
        ],
      },
    ],
  },
);
/** Answer of `GET /dictionaries/{name}`. */
export type Dictionary = Static<typeof Dictionary>;

// ---------------------------------------------------------------------------------------------------------------
// Bets

/** Bet type codes of the bet (see "partner-reported bets" in docs/decisions.md) object (the MTS and advisory contract): 0 single, 1 express, 2 system. */
export const PARTNER_BET_TYPE_CODE = { single: 0, express: 1, system: 2 } as const;

/** A selection of a bet in the bet (see "partner-reported bets" in docs/decisions.md) object. */
export const PartnerBetSelection = Type.Object(
  {
    sport_event_id: Type.String(),
    market_id: Type.String(),
    odd_id: Type.String(),
    value: Type.String({ description: 'accepted odds, 6 decimals' }),
    requested_value: Type.String({ description: 'the odds the player saw, 6 decimals' }),
    status: Type.Integer({ description: `odd status: ${describeCodes(ODD_STATUS_CODES)}` }),
  },
  { additionalProperties: false },
);

/**
 * Any bet of a white label in the shape (see "partner-reported bets" in docs/decisions.md) (`GET /bets/{bet_id}`, `GET /bets`): frame bets today, MTS and advisory
 * bets as they land. Amounts are decimal strings with 6 decimals. `status.code` is the bet status numbers rule; `status.reason` is the first
 * restriction of a declined bet, the operator or partner reason of a cancelled or voided one, else null. `refund` is
 * the amount paid back by a cancel or void (status 5 or 6), else null. `settlement` is the current settlement, paid
 * on the stake left after accepted cash-out orders (`cash_out_orders`, and the partner's `foreign_cash_out_orders`).
 */
export const PartnerBet = Type.Object(
  {
    id: Type.String(),
    player_id: Type.String(),
    source: Type.Union([Type.Literal('frame'), Type.Literal('mts'), Type.Literal('advisory')]),
    status: Type.Object({
      code: Type.Integer({ description: `bet status: ${describeCodes(BET_STATUS_CODES)}` }),
      reason: Type.Union([Type.String(), Type.Null()]),
    }),
    type: Type.Object({
      code: Type.Integer({ minimum: 0, maximum: 2 }),
      system_sizes: Type.Array(Type.Integer(), {
        description:
          '[1] for a single, [n] for an express of n selections (foreign ones count), the sizes of a system',
      }),
    }),
    stake: Money,
    total_odds: Type.String({ description: '6 decimals' }),
    selections: Type.Array(PartnerBetSelection),
    bet_builders: Type.Optional(
      Type.Array(
        Type.Object(
          {
            sport_event_id: Type.String(),
            value: Type.String({ description: 'the accepted combined odds, 6 decimals' }),
            requested_value: Type.String({ description: 'the combined odds the player saw, 6 decimals' }),
            status: Type.Integer({
              description: `the builder's result as a selection's: ${describeCodes(ODD_STATUS_CODES)}`,
            }),
            legs: Type.Array(PartnerBetSelection, {
              description:
                "the inner legs; each leg's value is the feed's odds at placement (the builder is priced whole)",
            }),
          },
          { additionalProperties: false },
        ),
        {
          description:
            'the bet builders, each one selection of the bet at its combined odds (see "Bet builders" in docs/decisions.md); absent when none',
        },
      ),
    ),
    foreign_selections: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    player_info: Type.Object({
      client_ip: Type.Union([Type.String(), Type.Null()]),
      country_code: Type.Union([Type.String(), Type.Null()]),
    }),
    restrictions: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    created_at: Type.String({ description: 'ISO 8601' }),
    accepted_at: Type.Union([Type.String(), Type.Null()]),
    settlement: Type.Union([
      Type.Object({
        payout: Type.String(),
        settle_amount: Type.String(),
        settle_type: Type.Integer({ description: describeCodes(SETTLE_TYPE_CODES) }),
        settled_at: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ]),
    refund: Type.Union([Money, Type.Null()]),
    cash_out_orders: Type.Record(Type.String(), CashOutOrder, {
      description:
        "the bet's cash-out orders placed through Bookie (the partner's `…/cash-out-orders/place` or the player's " +
        'frame), accepted and declined, by order id; {} when none',
    }),
    foreign_cash_out_orders: Type.Array(Type.Unknown()),
  },
  {
    examples: [
      {
        id: '0b7f0b2e-4e44-4a7a-9d0e-8f0d2c1e5a10',
        player_id: 'p-1001',
        source: 'frame',
        status: { code: 1, reason: null },
        type: { code: 0, system_sizes: [1] },
        stake: { value: '10.000000', currency_code: 'EUR' },
        total_odds: '1.850000',
        selections: [
          {
            sport_event_id: '6a7c1d4e-1f2b-4c3d-8e9f-0a1b2c3d4e5f',
            market_id: '1',
            odd_id: '1',
            value: '1.850000',
            requested_value: '1.850000',
            status: 0,
          },
        ],
        foreign_selections: [],
        player_info: { client_ip: null, country_code: null },
        restrictions: [],
        created_at: '2026-05-01T12:00:00.000Z',
        accepted_at: '2026-05-01T12:00:00.120Z',
        settlement: null,
        refund: null,
        cash_out_orders: {},
        foreign_cash_out_orders: [],
      },
    ],
  },
);
/** Any bet of a white label in the shape (see "partner-reported bets" in docs/decisions.md). */
export type PartnerBet = Static<typeof PartnerBet>;

/** Path parameters of the `/bets/{bet_id}` operations. */
export const PartnerBetParams = Type.Object({
  bet_id: Type.String({ minLength: 1, maxLength: 128, description: 'the bet id' }),
});

/** Query of `GET /bets`: filters and cursor paging (newest first). */
export const PartnerBetQuery = Type.Object(
  {
    player_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    status: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,2}$',
        description: `a bet status number: ${describeCodes(BET_STATUS_CODES)}`,
      }),
    ),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'placed at or after (ISO 8601)' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'placed before (ISO 8601)' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`next` of the previous page' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1..500, default 100' })),
  },
  { additionalProperties: false },
);
/** Query of `GET /bets`. */
export type PartnerBetQuery = Static<typeof PartnerBetQuery>;

/** A page of `GET /bets`; `next` is the cursor of the following page, null on the last. */
export const PartnerBetPage = Type.Object(
  { items: Type.Array(PartnerBet), next: Type.Union([Type.String(), Type.Null()]) },
  { examples: [{ items: [], next: null }] },
);
/** A page of `GET /bets`. */
export type PartnerBetPage = Static<typeof PartnerBetPage>;

/** Body of `POST /bets/{bet_id}/cancel` and `…/void`. */
export const PartnerBetActionBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'why; kept in the audit log' }) },
  { additionalProperties: false, examples: [{ reason: 'event abandoned before kick-off' }] },
);
/** Body of `POST /bets/{bet_id}/cancel` and `…/void`. */
export type PartnerBetActionBody = Static<typeof PartnerBetActionBody>;

/**
 * Answer of `POST /bets/{bet_id}/cancel` and `…/void`: the transition made (`settled`: the stake is on its way back
 * in a `/bet/settle` callback), the callbacks enqueued, and the bet after the action.
 */
export const PartnerBetActionAnswer = Type.Object(
  {
    transition: Type.String({ description: 'settled (the stake is on its way back in /bet/settle)' }),
    callbacks: Type.Integer({ description: 'callbacks enqueued' }),
    bet: PartnerBet,
  },
  { examples: [{ transition: 'settled', callbacks: 1, bet: PartnerBet.examples?.[0] }] },
);
/** See {@link PartnerBetActionAnswer}. */
export type PartnerBetActionAnswer = Static<typeof PartnerBetActionAnswer>;

// ---------------------------------------------------------------------------------------------------------------
// Reports

/** Query of `GET /reports/bets` and `GET /reports/daily`: a window of placement times and the format. */
export const PartnerReportQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'window start (inclusive), ISO 8601' }),
    to: Type.String({
      format: 'date-time',
      description: 'window end (exclusive), ISO 8601; at most 92 days',
    }),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'default json' }),
    ),
  },
  { additionalProperties: false },
);
/** Query of the report operations. */
export type PartnerReportQuery = Static<typeof PartnerReportQuery>;

/** One bet of `GET /reports/bets`. */
export const BetReportRow = Type.Object({
  bet_id: Type.String(),
  player_id: Type.String(),
  created_at: Type.String(),
  status: Type.Integer(),
  type: Type.Integer({ description: '0 single, 1 express, 2 system' }),
  currency: Type.String(),
  stake: Type.String(),
  total_odds: Type.String(),
  settle_amount: Type.Union([Type.String(), Type.Null()]),
  settled_at: Type.Union([Type.String(), Type.Null()]),
  source: Type.Optional(
    Type.Union([Type.Literal('frame'), Type.Literal('mts'), Type.Literal('advisory')], {
      description:
        'how the bet reached Bookie: the frame, reported for a decision (MTS), or reported for advice',
    }),
  ),
});
/** One bet of the bet report. */
export type BetReportRow = Static<typeof BetReportRow>;

/** Answer of `GET /reports/bets?format=json`: every bet placed in the window, oldest first. */
export const BetReport = Type.Object(
  { from: Type.String(), to: Type.String(), items: Type.Array(BetReportRow) },
  {
    examples: [
      {
        from: '2026-05-01T00:00:00.000Z',
        to: '2026-05-02T00:00:00.000Z',
        items: [
          {
            bet_id: '0b7f0b2e-4e44-4a7a-9d0e-8f0d2c1e5a10',
            player_id: 'p-1001',
            created_at: '2026-05-01T12:00:00.000Z',
            status: 3,
            type: 0,
            currency: 'EUR',
            stake: '10.000000',
            total_odds: '1.850000',
            settle_amount: '18.500000',
            settled_at: '2026-05-01T14:00:00.000Z',
          },
        ],
      },
    ],
  },
);
/** Answer of the bet report. */
export type BetReport = Static<typeof BetReport>;

/**
 * One day (UTC, by placement time) and currency of `GET /reports/daily`: bets placed and accepted, the stakes of
 * accepted bets, the settle amounts paid on the settled ones, and the gross gaming revenue of the settled ones
 * (stakes − settle amounts); apart from them, the advisory bets first reported that day and their stakes (Bookie
 * neither decides nor settles them, so they are in no other column). Amounts are decimal strings with 6 decimals.
 */
export const DailyReportRow = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
  currency: Type.String(),
  bets_placed: Type.Integer(),
  bets_accepted: Type.Integer(),
  bets_settled: Type.Integer(),
  stake: Type.String(),
  settled_stake: Type.String(),
  settle_amount: Type.String(),
  ggr: Type.String(),
  advisory_bets: Type.Integer({ description: 'advisory bets first reported that day (POST /bets/advisory)' }),
  advisory_stake: Type.String({
    description: 'Σ stake of those advisory bets whose reported status is not declined (2)',
  }),
});
/** One row of the daily report. */
export type DailyReportRow = Static<typeof DailyReportRow>;

/** Answer of `GET /reports/daily?format=json`. */
export const DailyReport = Type.Object(
  { from: Type.String(), to: Type.String(), items: Type.Array(DailyReportRow) },
  {
    examples: [
      {
        from: '2026-05-01T00:00:00.000Z',
        to: '2026-05-02T00:00:00.000Z',
        items: [
          {
            day: '2026-05-01',
            currency: 'EUR',
            bets_placed: 3,
            bets_accepted: 2,
            bets_settled: 1,
            stake: '30.000000',
            settled_stake: '10.000000',
            settle_amount: '18.500000',
            ggr: '-8.500000',
            advisory_bets: 1,
            advisory_stake: '5.000000',
          },
        ],
      },
    ],
  },
);
/** Answer of the daily report. */
export type DailyReport = Static<typeof DailyReport>;

/** A report as CSV (`format=csv`): RFC 4180 text with a header line, money as decimal strings. */
export const ReportCsv = Type.String({
  description: 'text/csv (RFC 4180) with a header line',
  examples: ['day,currency,bets_placed,…\r\n2026-05-01,EUR,3,…\r\n'],
});
