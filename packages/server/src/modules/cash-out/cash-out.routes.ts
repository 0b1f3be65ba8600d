import { randomUUID } from 'node:crypto';
import {
  CashOutBetParams,
  CashOutCalculateBody,
  CashOutMarginBody,
  CashOutMargins,
  CashOutOrderAnswer,
  CashOutOrderParams,
  CashOutPlaceBody,
  CashOutQuote,
  errorAnswers,
  FrameCashOutParams,
  FrameCashOutPlaceBody,
} from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { ADMIN_SECURITY, operatorOf, PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf, playerOf } from '../../http/request-context.js';
import { calculateCashOut } from './calculate-cash-out.js';
import { cancelCashOut } from './cancel-cash-out.js';
import { cashOutMargins, type MarginDeps, setCashOutMargin } from './cash-out-margin.js';
import type { CashOutDeps } from './deps.js';
import { placeCashOut } from './place-cash-out.js';
import { simplifiedCalculateCashOut } from './simplified-calculate-cash-out.js';

const QUOTE_TEXT =
  'The offer follows the current prices (margin-free probabilities of the open selections, results of the settled ' +
  'ones, boost, freebet and caps as settlement counts them) less the cash-out margin, and lies between what the ' +
  'bet pays if it loses and if it wins. An offer comes with a `quote_id` that holds until `expires_at`. When ' +
  'nothing is offered, `available` is false and `reason` says why: first `foreign_selections` (the bet has a ' +
  'selection the platform does not cover, resulted or not: only the partner cashes it out, with foreign cash-out ' +
  'orders) and `cash_out_unavailable` (a bet placed in the frame, while the white label does not support the ' +
  'cash-out callbacks the player would be paid through) and `bet_builder` (the bet carries a bet builder, which ' +
  'is not cashed out), then `bet_type_not_supported`, `leg_lost`, ' +
  '`no_open_legs`, `market_suspended`, `nothing_to_win`, `bet_not_open`, `amount_too_large`.';
const PLACE_TEXT =
  'Accepted at exactly `refund_amount` when the named quote still holds for these amounts or the offer on the ' +
  'current prices is at least `refund_amount`; otherwise declined with a reason (`foreign_selections`, ' +
  '`cash_out_unavailable`, `bet_builder`, `price_moved`, `quote_expired`, `market_suspended`, `leg_resulted`, `bet_not_open`, ' +
  '`amount_too_large`). An accepted order lowers the stake in play; when it takes all that remained the bet ends ' +
  'cashed out (status 7) and no settlement follows. The player of a frame bet is paid through the ' +
  '`/bet/cash-out-orders/accepted` callback; when that callback proves unsupported (404, 405 or 501) the order is ' +
  'reversed: declined with `partner_unsupported`, the stake back in play.';

/**
 * Partner REST of cash-out (spec 03 "Cash out"): calculate, simplified calculate, place and cancel; and the operator's
 * cash-out margins.
 */
export async function cashOutRoutes(
  app: FastifyInstance,
  cd: CashOutDeps,
  margins: MarginDeps,
): Promise<void> {
  const common = { tags: ['cash-out'], security: PARTNER_SECURITY };
  app.post<{ Params: Static<typeof CashOutBetParams>; Body: Static<typeof CashOutCalculateBody> }>(
    '/bets/:bet_id/cash-out-orders/calculate',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'calculateCashOut',
        summary: 'Quote a cash-out of a bet, full or partial',
        description: `Quotes cashing out \`amount\` of the bet's remaining stake (all of it when absent). ${QUOTE_TEXT}`,
        params: CashOutBetParams,
        body: CashOutCalculateBody,
        response: { 200: CashOutQuote, ...errorAnswers(400, 401, 403, 404, 429) },
      },
    },
    async (req) =>
      calculateCashOut(cd, {
        whiteLabelId: partnerOf(req).whiteLabelId,
        betId: req.params.bet_id,
        amount: req.body?.amount,
      }),
  );
  app.post<{ Params: Static<typeof CashOutBetParams> }>(
    '/bets/:bet_id/cash-out-orders/simplified-calculate',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'simplifiedCalculateCashOut',
        summary: 'Quote the full cash-out of a bet (no body)',
        description: `Quotes cashing out the whole remaining stake, e.g. for support staff. ${QUOTE_TEXT}`,
        params: CashOutBetParams,
        response: { 200: CashOutQuote, ...errorAnswers(400, 401, 403, 404, 429) },
      },
    },
    async (req) =>
      simplifiedCalculateCashOut(cd, { whiteLabelId: partnerOf(req).whiteLabelId, betId: req.params.bet_id }),
  );
  app.post<{ Params: Static<typeof CashOutBetParams>; Body: Static<typeof CashOutPlaceBody> }>(
    '/bets/:bet_id/cash-out-orders/place',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'placeCashOut',
        summary: 'Place a cash-out order on a bet',
        description: `${PLACE_TEXT} Placing the same order \`id\` again answers the stored order (200).`,
        params: CashOutBetParams,
        body: CashOutPlaceBody,
        response: {
          200: CashOutOrderAnswer,
          201: CashOutOrderAnswer,
          ...errorAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (req, reply) => {
      const r = await placeCashOut(cd, {
        whiteLabelId: partnerOf(req).whiteLabelId,
        betId: req.params.bet_id,
        id: req.body.id,
        amount: req.body.amount,
        refundAmount: req.body.refund_amount,
        quoteId: req.body.quote_id,
      });
      return reply.code(r.created ? 201 : 200).send({ order: r.order });
    },
  );
  app.patch<{ Params: Static<typeof CashOutOrderParams> }>(
    '/bets/:bet_id/cash-out-orders/:cash_out_order_id/cancel',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'cancelCashOut',
        summary: 'Report that an accepted cash-out order was declined by the partner',
        description:
          'The order becomes declined (`cancelled_by_partner`) and its part of the stake comes back to the bet: a ' +
          'cashed-out bet is open again, and a bet already settled is unsettled and settled again on the larger ' +
          'stake. The partner gets `/bet/cash-out-orders/declined` and takes back what it paid for the order. 409 ' +
          'when the order is not accepted.',
        params: CashOutOrderParams,
        response: { 200: CashOutOrderAnswer, ...errorAnswers(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) =>
      cancelCashOut(cd, {
        whiteLabelId: partnerOf(req).whiteLabelId,
        betId: req.params.bet_id,
        orderId: req.params.cash_out_order_id,
      }),
  );
  cashOutMarginRoutes(app, margins);
}

/**
 * The operator's cash-out margins (docs/adr/0024-cash-out.md), under the risk admin paths: the default margin and each
 * white label's own, read and set.
 */
function cashOutMarginRoutes(app: FastifyInstance, margins: MarginDeps): void {
  const operator = { tags: ['risk (operator)'], security: ADMIN_SECURITY };
  app.get(
    '/admin/risk/cash-out-margins',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...operator,
        operationId: 'getCashOutMargins',
        summary: "Cash-out margins: the default and each white label's own",
        description:
          'A cash-out offer is the fair value of the bet × (1 − margin). White labels without their own margin ' +
          'use the default (`CASH_OUT_MARGIN`).',
        response: { 200: CashOutMargins, ...errorAnswers(401) },
      },
    },
    async () => cashOutMargins(margins),
  );

  app.put<{ Body: CashOutMarginBody }>(
    '/admin/risk/cash-out-margins',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...operator,
        operationId: 'putCashOutMargin',
        summary: "Set a white label's cash-out margin",
        description:
          'A fraction in [0, 1) with at most 6 decimals; null removes it and the default applies again. Audited; ' +
          'effective without a restart (within RISK_SETTINGS_CACHE_MS in every process).',
        body: CashOutMarginBody,
        response: { 200: CashOutMargins, ...errorAnswers(400, 401, 404) },
      },
    },
    async (req) => setCashOutMargin(margins, req.body, operatorOf(req)),
  );
}

/** The player's cash-out in the frame: the same calculate and place, on the session player's own bets. */
export function frameCashOutRoutes(
  app: FastifyInstance,
  cd: CashOutDeps,
  player: preHandlerHookHandler[],
  errors: Record<number, unknown>,
): void {
  const common = { tags: ['frame'], security: [{ bearer: [] }] };
  const params = FrameCashOutParams;
  app.post<{ Params: { id: string }; Body: Static<typeof CashOutCalculateBody> }>(
    '/frame-api/bets/:id/cash-out/calculate',
    {
      preHandler: player,
      schema: {
        ...common,
        operationId: 'calculatePlayerCashOut',
        summary: "Quote a cash-out of one of the player's bets",
        description: `Quotes cashing out \`amount\` of the remaining stake (all of it when absent). ${QUOTE_TEXT}`,
        params,
        body: CashOutCalculateBody,
        response: { 200: CashOutQuote, 404: errors[400], ...errors },
      },
    },
    async (req) =>
      calculateCashOut(cd, {
        whiteLabelId: playerOf(req).whiteLabelId,
        playerId: playerOf(req).playerId,
        betId: req.params.id,
        amount: req.body?.amount,
      }),
  );
  app.post<{ Params: { id: string }; Body: Static<typeof FrameCashOutPlaceBody> }>(
    '/frame-api/bets/:id/cash-out/place',
    {
      preHandler: player,
      schema: {
        ...common,
        operationId: 'placePlayerCashOut',
        summary: "Cash out one of the player's bets, fully or partly",
        description: PLACE_TEXT,
        params,
        body: FrameCashOutPlaceBody,
        response: { 201: CashOutOrderAnswer, 404: errors[400], ...errors },
      },
    },
    async (req, reply) => {
      const r = await placeCashOut(cd, {
        whiteLabelId: playerOf(req).whiteLabelId,
        playerId: playerOf(req).playerId,
        betId: req.params.id,
        id: randomUUID(),
        amount: req.body.amount,
        refundAmount: req.body.refund_amount,
        quoteId: req.body.quote_id,
      });
      return reply.code(201).send({ order: r.order });
    },
  );
}
