/**
 * Wire formats of partner-reported bets (docs/adr/0023-mts-and-advisory.md): the risk management mode — a partner
 * reports a bet it is taking with `POST /bets` (Bookie decides, waits out the remaining bet delay, and answers the
 * bet or its decline), settles the foreign selections of a mixed combo and reports foreign cash-outs with
 * `PATCH /bets/{bet_id}`, and withdraws a bet it declined on its side with `DELETE /bets` — and the advisory mode
 * (`POST /bets/advisory`, `PUT /bets/advisory/{bet_id}`), where Bookie only advises restrictions. Money and odds
 * are decimal strings; the bet type is `{code: 0 single | 1 express | 2 system, system_sizes}`.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { ReportedBuilderSelection } from './bet-builder.js';
import { DECIMAL_PATTERN as DECIMAL } from './decimal.js';
import { PartnerBet } from './partner-rest.js';
import { BET_STATUS_CODES, codeBounds, describeCodes, ODD_STATUS_CODES } from './status-codes.js';

const BET_ID = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[\\x21-\\x7e]+$',
  description: "the partner's bet id: 1–128 printable characters, unique per white label",
});
const TEXT = (max: number) => Type.String({ maxLength: max });
// a selection's (or a foreign selection's) final status is an odd status, 7 refunded manually included
/** The selection of the examples of reported and advisory bets: odd 1 of market 1 at 2.5. */
const EXAMPLE_SELECTION = {
  sport_event_id: '5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21',
  market_id: '1',
  odd_id: '1',
  value: '2.5',
};

const ODD_STATUS_TEXT = `odd status: ${describeCodes(ODD_STATUS_CODES)}`;

/** An amount in a currency: `{value: decimal string, currency_code: ISO 4217}`. */
export const ReportedMoney = Type.Object(
  {
    value: Type.String({ pattern: DECIMAL, description: 'decimal string' }),
    currency_code: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 alpha-3' }),
  },
  { additionalProperties: false },
);

/** Bet type: code 0 single (sizes [1]), 1 express (sizes [n]), 2 system (the chosen sizes, 2…n). */
export const ReportedBetType = Type.Object(
  {
    code: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
    system_sizes: Type.Array(Type.Integer({ minimum: 0, maximum: 100 }), { maxItems: 30 }),
  },
  { additionalProperties: false },
);

/** A platform selection: the odd and the odds the player saw. */
export const ReportedSelection = Type.Object(
  {
    sport_event_id: Type.String({ minLength: 1, maxLength: 128 }),
    market_id: Type.String({ minLength: 1, maxLength: 128 }),
    odd_id: Type.String({ minLength: 1, maxLength: 128 }),
    value: Type.String({ pattern: DECIMAL, description: 'odds, decimal string' }),
  },
  { additionalProperties: false },
);

/**
 * A foreign selection of a mixed combo (an event the platform does not cover): `id` (the partner's, the same in
 * every request) and `value` (odds at placement) are required; the descriptions are optional but recommended.
 */
export const ForeignSelection = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 128 }),
    value: Type.String({ pattern: DECIMAL, description: 'odds at placement, decimal string' }),
    sport_event_title: Type.Optional(TEXT(500)),
    sport: Type.Optional(TEXT(200)),
    market_name: Type.Optional(TEXT(500)),
    odd_name: Type.Optional(TEXT(500)),
    status: Type.Optional(Type.Integer({ ...codeBounds(ODD_STATUS_CODES), description: ODD_STATUS_TEXT })),
    status_reason: Type.Optional(TEXT(500)),
  },
  { additionalProperties: false },
);
/** See {@link ForeignSelection}. */
export type ForeignSelection = Static<typeof ForeignSelection>;

/** Body of `POST /bets`: a bet the partner is taking in its own bet slip, to decide with the platform's risk. */
export const MtsBetRequest = Type.Object(
  {
    bet_id: BET_ID,
    player_id: Type.String({ minLength: 1, maxLength: 128 }),
    type: ReportedBetType,
    stake: ReportedMoney,
    selections: Type.Array(ReportedSelection, { maxItems: 30 }),
    bet_builders: Type.Optional(
      Type.Array(ReportedBuilderSelection, {
        maxItems: 30,
        description:
          'bet builders, each one selection at its combined odds (docs/adr/0043-bet-builder-bets.md)',
      }),
    ),
    foreign_selections: Type.Optional(Type.Array(ForeignSelection, { maxItems: 30 })),
    odds_strategy: Type.Optional(
      Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
        description: '1 accept within the tolerance, 2 accept higher odds, 3 accept any odds (default 1)',
      }),
    ),
    created_at: Type.String({
      format: 'date-time',
      description: "the client's bet creation time, with offset",
    }),
    client_ip: Type.Optional(TEXT(64)),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}$' })),
    recommended_max_payout: Type.Optional(ReportedMoney),
    foreign_params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    additionalProperties: false,
    examples: [
      {
        bet_id: 'slip-1001',
        player_id: 'player-42',
        type: { code: 1, system_sizes: [2] },
        stake: { value: '10.00', currency_code: 'EUR' },
        selections: [EXAMPLE_SELECTION],
        foreign_selections: [
          { id: 'ext-77', value: '1.8', sport_event_title: 'Local derby', odd_name: 'Home' },
        ],
        odds_strategy: 1,
        created_at: '2024-05-01T12:00:00+00:00',
      },
    ],
  },
);
/** See {@link MtsBetRequest}. */
export type MtsBetRequest = Static<typeof MtsBetRequest>;

const RestrictionList = Type.Array(
  Type.Object({ type: Type.String(), context: Type.Record(Type.String(), Type.Unknown()) }),
);

/**
 * Answer of `POST /bets` (201, also for a decline): the bet in the partner bet shape — `status.code` 1 accepted with
 * the accepted odds per selection, or 2 declined — and every restriction that failed (empty when accepted).
 */
export const MtsBetAnswer = Type.Object(
  { bet: PartnerBet, restrictions: RestrictionList },
  {
    examples: [
      {
        bet: { ...(PartnerBet.examples?.[0] as object), id: 'slip-1001', source: 'mts' },
        restrictions: [],
      },
    ],
  },
);
/** See {@link MtsBetAnswer}. */
export type MtsBetAnswer = Static<typeof MtsBetAnswer>;

/**
 * A foreign cash-out order: `amount` is the part of the stake cashed out, `refund_amount` what the player receives;
 * status pending (optional, a later accepted or declined is then due), accepted or declined.
 */
export const ForeignCashOutOrder = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 128 }),
    amount: Type.String({ pattern: DECIMAL }),
    refund_amount: Type.String({ pattern: DECIMAL }),
    status: Type.Object(
      {
        code: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('declined')]),
        reason: Type.Optional(Type.Union([TEXT(500), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    created_at: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
/** See {@link ForeignCashOutOrder}. */
export type ForeignCashOutOrder = Static<typeof ForeignCashOutOrder>;

/** Body of `PATCH /bets/{bet_id}`: final statuses of foreign selections and foreign cash-out orders. */
export const MtsBetPatch = Type.Object(
  {
    foreign_selections: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String({ minLength: 1, maxLength: 128 }),
            status: Type.Integer({ ...codeBounds(ODD_STATUS_CODES), description: ODD_STATUS_TEXT }),
            status_reason: Type.Optional(TEXT(500)),
          },
          { additionalProperties: false },
        ),
        { maxItems: 30 },
      ),
    ),
    foreign_cash_out_orders: Type.Optional(Type.Array(ForeignCashOutOrder, { maxItems: 100 })),
  },
  {
    additionalProperties: false,
    examples: [{ foreign_selections: [{ id: 'ext-77', status: 1 }] }],
  },
);
/** See {@link MtsBetPatch}. */
export type MtsBetPatch = Static<typeof MtsBetPatch>;

/** Body of `DELETE /bets`: a bet the platform accepted was declined on the partner's side. */
export const MtsBetWithdrawal = Type.Object(
  { bet_id: BET_ID, reason: Type.Optional(TEXT(500)) },
  { additionalProperties: false, examples: [{ bet_id: 'slip-1001', reason: 'payment failed' }] },
);
/** See {@link MtsBetWithdrawal}. */
export type MtsBetWithdrawal = Static<typeof MtsBetWithdrawal>;

/** Body of `POST /bets/advisory`: a bet the partner took on its own, for the platform's advice. */
export const AdvisoryBetRequest = Type.Object(
  {
    bet_id: BET_ID,
    site_id: Type.Optional(TEXT(128)),
    type: ReportedBetType,
    stake: ReportedMoney,
    selections: Type.Array(ReportedSelection, { maxItems: 30 }),
    bet_builders: Type.Optional(
      Type.Array(ReportedBuilderSelection, {
        maxItems: 30,
        description:
          'bet builders, each one selection at its combined odds (docs/adr/0043-bet-builder-bets.md)',
      }),
    ),
    foreign_selections: Type.Optional(Type.Array(ForeignSelection, { maxItems: 30 })),
    player_id: Type.String({ minLength: 1, maxLength: 128 }),
    client_ip: Type.Optional(TEXT(64)),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}$' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        bet_id: 'adv-2001',
        site_id: 'acme.example',
        type: { code: 0, system_sizes: [1] },
        stake: { value: '10.00', currency_code: 'EUR' },
        selections: [EXAMPLE_SELECTION],
        player_id: 'player-42',
        created_at: '2024-05-01T12:00:00+00:00',
      },
    ],
  },
);
/** See {@link AdvisoryBetRequest}. */
export type AdvisoryBetRequest = Static<typeof AdvisoryBetRequest>;

/** Body of `PUT /bets/advisory/{bet_id}`: the whole state of the bet; what it leaves out is removed. */
export const AdvisoryBetUpdate = Type.Object(
  {
    status: Type.Object(
      {
        code: Type.Integer({
          ...codeBounds(BET_STATUS_CODES),
          description: `bet status: ${describeCodes(BET_STATUS_CODES)}`,
        }),
        reason: Type.Optional(Type.Union([TEXT(500), Type.Null()])),
      },
      { additionalProperties: false },
    ),
    selections: Type.Array(
      Type.Object(
        {
          sport_event_id: Type.String({ minLength: 1, maxLength: 128 }),
          market_id: Type.String({ minLength: 1, maxLength: 128 }),
          odd_id: Type.String({ minLength: 1, maxLength: 128 }),
          value: Type.String({ pattern: DECIMAL }),
          status: Type.Optional(
            Type.Integer({ ...codeBounds(ODD_STATUS_CODES), description: ODD_STATUS_TEXT }),
          ),
          status_reason: Type.Optional(TEXT(500)),
        },
        { additionalProperties: false },
      ),
      { maxItems: 30 },
    ),
    foreign_selections: Type.Optional(Type.Array(ForeignSelection, { maxItems: 30 })),
    foreign_cash_out_orders: Type.Optional(Type.Array(ForeignCashOutOrder, { maxItems: 100 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        status: { code: 3, reason: null },
        selections: [{ ...EXAMPLE_SELECTION, status: 1 }],
      },
    ],
  },
);
/** See {@link AdvisoryBetUpdate}. */
export type AdvisoryBetUpdate = Static<typeof AdvisoryBetUpdate>;

/** An advisory bet as stored: its current state, version and the restrictions advised when it was reported. */
export const AdvisoryBet = Type.Object({
  id: Type.String(),
  version: Type.Integer({ description: '1 for the first report, +1 for every changed PUT' }),
  status: Type.Object({ code: Type.Integer(), reason: Type.Union([Type.String(), Type.Null()]) }),
  type: Type.Object({ code: Type.Integer(), system_sizes: Type.Array(Type.Integer()) }),
  stake: Type.Object({ value: Type.String(), currency_code: Type.String() }),
  refund: Type.Union([Type.Object({ value: Type.String(), currency_code: Type.String() }), Type.Null()]),
  selections: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  foreign_selections: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  foreign_cash_out_orders: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  player_info: Type.Object({
    client_ip: Type.Union([Type.String(), Type.Null()]),
    country_code: Type.Union([Type.String(), Type.Null()]),
  }),
  created_at: Type.String(),
  cash_out_orders: Type.Record(Type.String(), Type.Unknown()),
});
/** See {@link AdvisoryBet}. */
export type AdvisoryBet = Static<typeof AdvisoryBet>;

const ADVISORY_EXAMPLE: AdvisoryBet = {
  id: 'adv-2001',
  version: 1,
  status: { code: 1, reason: null },
  type: { code: 0, system_sizes: [1] },
  stake: { value: '10.000000', currency_code: 'EUR' },
  refund: null,
  selections: [
    {
      sport_event_id: '5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21',
      market_id: '1',
      odd_id: '1',
      value: '2.500000',
    },
  ],
  foreign_selections: [],
  foreign_cash_out_orders: [],
  player_info: { client_ip: null, country_code: null },
  created_at: '2024-05-01T12:00:00.000Z',
  cash_out_orders: {},
};

/** Answer of `POST /bets/advisory` (201): the bet as recorded and the restrictions advised. */
export const AdvisoryAnswer = Type.Object(
  { bet: AdvisoryBet, restrictions: RestrictionList },
  {
    examples: [
      {
        bet: ADVISORY_EXAMPLE,
        restrictions: [{ type: 'max_bet', context: { max_bet: '5.000000', sport_event_id: 'ev-1' } }],
      },
    ],
  },
);
/** See {@link AdvisoryAnswer}. */
export type AdvisoryAnswer = Static<typeof AdvisoryAnswer>;

/** Answer of `PUT /bets/advisory/{bet_id}` (200): the bet as stored now. */
export const AdvisoryUpdateAnswer = Type.Object(
  { bet: AdvisoryBet },
  { examples: [{ bet: ADVISORY_EXAMPLE }] },
);
/** See {@link AdvisoryUpdateAnswer}. */
export type AdvisoryUpdateAnswer = Static<typeof AdvisoryUpdateAnswer>;

/** Answer of `GET /bets/advisory/{bet_id}/versions`: every state the bet was reported in, oldest first. */
export const AdvisoryVersions = Type.Object(
  {
    items: Type.Array(Type.Object({ version: Type.Integer(), at: Type.String(), state: AdvisoryBet })),
  },
  { examples: [{ items: [{ version: 1, at: '2024-05-01T12:00:00.000Z', state: ADVISORY_EXAMPLE }] }] },
);
/** See {@link AdvisoryVersions}. */
export type AdvisoryVersions = Static<typeof AdvisoryVersions>;

/**
 * Answer of `PATCH /bets/{bet_id}`: the transition the report made (`settled`, `unsettled`, `resettled`,
 * `cashed_out` or `none`), the callbacks enqueued to the partner, and the bet after it.
 */
export const MtsBetPatchAnswer = Type.Object(
  {
    transition: Type.String({ description: 'settled, unsettled, resettled, cashed_out or none' }),
    callbacks: Type.Integer({ description: 'callbacks enqueued to the partner' }),
    bet: PartnerBet,
  },
  { examples: [{ transition: 'settled', callbacks: 1, bet: PartnerBet.examples?.[0] }] },
);
/** See {@link MtsBetPatchAnswer}. */
export type MtsBetPatchAnswer = Static<typeof MtsBetPatchAnswer>;
