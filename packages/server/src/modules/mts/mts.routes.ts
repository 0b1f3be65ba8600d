import {
  errorAnswers,
  MtsBetAnswer,
  MtsBetPatch,
  MtsBetPatchAnswer,
  MtsBetRequest,
  MtsBetWithdrawal,
  PartnerBet,
  PartnerBetParams,
} from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import type { MtsDeps } from './deps.js';
import { reportBet } from './report-bet.js';
import { updateReportedBet } from './update-bet.js';
import { withdrawReportedBet } from './withdraw-bet.js';

/**
 * The risk management mode (partner-reported bets): `POST /bets` decides a bet the partner is taking, `PATCH
 * /bets/{bet_id}` reports foreign results and foreign cash-outs, `DELETE /bets` withdraws a bet the partner declined.
 */
export async function mtsRoutes(app: FastifyInstance, mts: MtsDeps): Promise<void> {
  const common = { tags: ['mts'], security: PARTNER_SECURITY };
  app.post<{ Body: Static<typeof MtsBetRequest> }>(
    '/bets',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'reportBet',
        summary: 'Decide a bet the partner is taking (risk management mode)',
        description:
          "The partner's bet slip reports a bet before it takes it. Bookie validates integrity (events, markets, odds, " +
          'bet stop, bet type: a `type` that does not fit the selections is declined `bet_type`, as advice advises ' +
          'it; only a malformed body is a 400), applies the odds strategy and the risk limits, waits out the remaining bet delay ' +
          '(the configured delay minus the time since `created_at`), decides again on the odds of that moment and ' +
          'answers 201 with the bet: `status.code` 1 accepted with the accepted odds per selection, or 2 declined ' +
          'with every failing restriction. Foreign selections (events Bookie does not cover) must all be listed: ' +
          'they count towards the bet type and their odds multiply into the total. Repeating a `bet_id` with the ' +
          'same body answers the same bytes; another body is 409. Bookie sends no place/accept callback (the ' +
          'partner holds the money) but settles the bet and sends `/bet/settle` and `/bet/unsettle`.',
        body: MtsBetRequest,
        response: { 201: MtsBetAnswer, ...errorAnswers(400, 401, 403, 409, 429, 503) },
      },
    },
    async (req, reply) => {
      const answer = await reportBet(mts, partnerOf(req).whiteLabelId, req.body);
      return reply.code(201).header('content-type', 'application/json; charset=utf-8').send(answer.text);
    },
  );
  app.patch<{ Params: Static<typeof PartnerBetParams>; Body: Static<typeof MtsBetPatch> }>(
    '/bets/:bet_id',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'updateReportedBet',
        summary: 'Report foreign results and foreign cash-out orders of a reported bet',
        description:
          "Final statuses of the bet's foreign selections (odd status codes 0–7) and foreign cash-out orders " +
          '(pending, accepted or declined). The bet settles once every platform selection is resulted by the feed ' +
          'and every foreign one by the partner; a changed foreign status unsettles and settles again. Accepted ' +
          'cash-out amounts are taken off the stake settlement pays on; an accepted total equal to the stake cashes ' +
          'the bet out. An unknown foreign id is a 400 naming it.',
        params: PartnerBetParams,
        body: MtsBetPatch,
        response: { 200: MtsBetPatchAnswer, ...errorAnswers(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => updateReportedBet(mts, partnerOf(req).whiteLabelId, req.params.bet_id, req.body),
  );
  app.delete<{ Body: Static<typeof MtsBetWithdrawal> }>(
    '/bets',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'withdrawReportedBet',
        summary: 'The partner declined a bet Bookie accepted',
        description:
          'The bet ends declined (status 2, reason `partner_declined`) and its exposure is released; nothing is ' +
          'settled or called back. Repeating it answers the same bet; 404 for an unknown bet, 409 once it is ' +
          'settled or cashed out.',
        body: MtsBetWithdrawal,
        response: { 200: PartnerBet, ...errorAnswers(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => withdrawReportedBet(mts, partnerOf(req).whiteLabelId, req.body),
  );
}
