/**
 * Cash-out wire formats (spec 03 "Cash out"; docs/adr/0024-cash-out.md): quotes, orders and their bodies, for the
 * partner (`/bets/{bet_id}/cash-out-orders/…`) and the player in the frame (`/frame/bets/{bet_id}/cash-out…`).
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { Decimal6 } from './callbacks.js';
import { MONEY_PATTERN as AMOUNT } from './decimal.js';

/** Why a cash-out is not offered or an order was declined. */
export const CashOutReason = Type.Union(
  [
    'bet_type_not_supported',
    'leg_lost',
    'no_open_legs',
    'market_suspended',
    'nothing_to_win',
    'bet_not_open',
    'amount_too_large',
    'price_moved',
    'leg_resulted',
    'quote_expired',
    'cancelled_by_partner',
    'foreign_selections',
    'cash_out_unavailable',
    'partner_unsupported',
    'bet_builder',
  ].map((r) => Type.Literal(r)),
  {
    description:
      'why nothing is offered, or why an order was declined; `foreign_selections`: the bet has a selection the ' +
      'platform does not cover (only the partner cashes it out); `cash_out_unavailable`: the white label cannot ' +
      "be paid a cash-out (its cash-out callbacks are not supported); `partner_unsupported`: an accepted order's " +
      'payment callback proved unsupported, so the order was reversed; `bet_builder`: the bet carries a bet builder, ' +
      'which is not cashed out',
  },
);
/**
 * Why a cash-out is not offered or an order was declined. Besides the value's reasons: `foreign_selections` (a bet
 * with a selection the platform does not cover gets no platform cash-out, open or resulted), `cash_out_unavailable`
 * (the white label's cash-out callbacks are not supported and its bets are paid through them) and
 * `partner_unsupported` (an accepted order reversed because its `/bet/cash-out-orders/accepted` proved unsupported)
 * and `bet_builder` (a bet carrying a bet builder is not cashed out, docs/decisions.md D65).
 */
export type CashOutReason = Static<typeof CashOutReason>;

/** Path of the cash-out operations on one bet. */
export const CashOutBetParams = Type.Object(
  { bet_id: Type.String({ minLength: 1, maxLength: 128, description: 'the bet id' }) },
  { additionalProperties: false },
);
/** Path of the cash-out operations on one bet. */
export type CashOutBetParams = Static<typeof CashOutBetParams>;

/** Path of `PATCH /bets/{bet_id}/cash-out-orders/{cash_out_order_id}/cancel`. */
export const CashOutOrderParams = Type.Object(
  {
    bet_id: Type.String({ minLength: 1, maxLength: 128, description: 'the bet id' }),
    cash_out_order_id: Type.String({ minLength: 1, maxLength: 128, description: 'the order id' }),
  },
  { additionalProperties: false },
);
/** Path of the cancel operation. */
export type CashOutOrderParams = Static<typeof CashOutOrderParams>;

/** Body of `…/cash-out-orders/calculate`: the part of the remaining stake to cash out; all of it when absent. */
export const CashOutCalculateBody = Type.Object(
  {
    amount: Type.Optional(
      Type.String({ pattern: AMOUNT, description: 'part of the remaining stake, up to 6 decimals' }),
    ),
  },
  { additionalProperties: false, examples: [{ amount: '4.000000' }, {}] },
);
/** Body of `…/cash-out-orders/calculate`. */
export type CashOutCalculateBody = Static<typeof CashOutCalculateBody>;

/** A cash-out quote: what the player receives for `amount` of the stake, held until `expires_at`. */
export const CashOutQuote = Type.Object(
  {
    available: Type.Boolean({ description: 'false: nothing is offered, see reason' }),
    reason: Type.Optional(CashOutReason),
    amount: Decimal6,
    refund_amount: Type.String({
      description: 'what the player receives, 6 decimals (0 when nothing is offered)',
    }),
    remaining_stake: Decimal6,
    quote_id: Type.Optional(Type.String({ description: 'pass it to place to get exactly this amount' })),
    expires_at: Type.Optional(Type.String({ description: 'until when the quote holds, ISO 8601' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        available: true,
        amount: '10.000000',
        refund_amount: '13.458000',
        remaining_stake: '10.000000',
        quote_id:
          'WyI5YThiN2M2ZCIsIjEwLjAwMDAwMCIsIjEzLjQ1ODAwMCIsMTcxNDU2NDgwNTAwMF0.q1Xv9n3aZtK0m2R8s7yVbQeLcW4uJ5dHf6gT1iPoN0E',
        expires_at: '2024-05-01T12:00:05.000Z',
      },
      {
        available: false,
        reason: 'market_suspended',
        amount: '10.000000',
        refund_amount: '0.000000',
        remaining_stake: '10.000000',
      },
    ],
  },
);
/** A cash-out quote. */
export type CashOutQuote = Static<typeof CashOutQuote>;

/** What a cash-out order asks, in the partner's body and in the frame's: the amounts and the quote to hold to. */
const cashOutOrderTerms = () => ({
  amount: Type.String({ pattern: AMOUNT, description: 'part of the stake cashed out, up to 6 decimals' }),
  refund_amount: Type.String({
    pattern: AMOUNT,
    description: 'what the player receives, up to 6 decimals',
  }),
  quote_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'the quote to hold to' }),
  ),
});

/** Body of `…/cash-out-orders/place`: the partner's order id, the amounts it accepts, and the quote if any. */
export const CashOutPlaceBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 128, description: "the partner's order id (idempotent)" }),
    ...cashOutOrderTerms(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: 'co-1',
        amount: '10.000000',
        refund_amount: '13.458000',
        quote_id:
          'WyI5YThiN2M2ZCIsIjEwLjAwMDAwMCIsIjEzLjQ1ODAwMCIsMTcxNDU2NDgwNTAwMF0.q1Xv9n3aZtK0m2R8s7yVbQeLcW4uJ5dHf6gT1iPoN0E',
      },
    ],
  },
);
/** Body of `…/cash-out-orders/place`. */
export type CashOutPlaceBody = Static<typeof CashOutPlaceBody>;

/** A cash-out order (spec 03 "Cash out rules"). */
export const CashOutOrder = Type.Object(
  {
    id: Type.String(),
    amount: Decimal6,
    refund_amount: Decimal6,
    status: Type.Object(
      {
        code: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('declined')]),
        reason: Type.Optional(CashOutReason),
      },
      { additionalProperties: false },
    ),
    created_at: Type.String(),
  },
  { additionalProperties: false },
);
/** A cash-out order. */
export type CashOutOrder = Static<typeof CashOutOrder>;

/** Answer of place and cancel: the order as it stands. */
export const CashOutOrderAnswer = Type.Object(
  { order: CashOutOrder },
  {
    additionalProperties: false,
    examples: [
      {
        order: {
          id: 'co-1',
          amount: '10.000000',
          refund_amount: '13.458000',
          status: { code: 'accepted' },
          created_at: '2024-05-01T12:00:01.000Z',
        },
      },
    ],
  },
);
/** Answer of place and cancel. */
export type CashOutOrderAnswer = Static<typeof CashOutOrderAnswer>;

/** Body of the frame's `POST /frame-api/bets/{id}/cash-out/place`: as the partner's, the order id chosen by Bookie. */
export const FrameCashOutPlaceBody = Type.Object(
  {
    ...cashOutOrderTerms(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        amount: '4.000000',
        refund_amount: '5.383000',
        quote_id:
          'WyI5YThiN2M2ZCIsIjEwLjAwMDAwMCIsIjEzLjQ1ODAwMCIsMTcxNDU2NDgwNTAwMF0.q1Xv9n3aZtK0m2R8s7yVbQeLcW4uJ5dHf6gT1iPoN0E',
      },
    ],
  },
);
/** Body of the frame's cash-out place. */
export type FrameCashOutPlaceBody = Static<typeof FrameCashOutPlaceBody>;

/** Path of the frame's cash-out routes on one of the session player's bets (`/frame-api/bets/{id}/cash-out…`). */
export const FrameCashOutParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });
/** See {@link FrameCashOutParams}. */
export type FrameCashOutParams = Static<typeof FrameCashOutParams>;

/**
 * Body of `PUT /admin/risk/cash-out-margins` (the cash-out rule): a white label's cash-out margin, a fraction in
 * [0, 1) as a decimal string with at most 6 decimals; `null` removes it and the default (`CASH_OUT_MARGIN`) applies.
 */
export const CashOutMarginBody = Type.Object(
  {
    white_label_id: Type.String({ minLength: 1, maxLength: 64 }),
    margin: Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
      description: 'a fraction in [0, 1), at most 6 decimals; null removes it (the default applies)',
    }),
  },
  { additionalProperties: false, examples: [{ white_label_id: 'wl-1', margin: '0.04' }] },
);
/** See {@link CashOutMarginBody}. */
export type CashOutMarginBody = Static<typeof CashOutMarginBody>;

/**
 * Answer of `GET` / `PUT /admin/risk/cash-out-margins`: the default margin and each white label's own, fractions as
 * decimal strings with 6 decimals. An offer is the bet's fair value × (1 − margin).
 */
export const CashOutMargins = Type.Object(
  {
    default_margin: Type.String({
      description: 'the margin of white labels without their own (CASH_OUT_MARGIN)',
    }),
    margins: Type.Array(Type.Object({ white_label_id: Type.String(), margin: Type.String() })),
  },
  {
    examples: [{ default_margin: '0.050000', margins: [{ white_label_id: 'wl-1', margin: '0.040000' }] }],
  },
);
/** See {@link CashOutMargins}. */
export type CashOutMargins = Static<typeof CashOutMargins>;
