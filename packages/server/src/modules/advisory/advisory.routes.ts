import {
  AdvisoryAnswer,
  AdvisoryBetRequest,
  AdvisoryBetUpdate,
  AdvisoryUpdateAnswer,
  AdvisoryVersions,
  errorAnswers,
  PartnerBetParams,
} from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import { adviseBet } from './advise-bet.js';
import type { AdvisoryDeps } from './deps.js';
import { advisoryBetVersions, updateAdvisoryBet } from './update-advisory-bet.js';

/** The advisory mode: the partner reports bets it took on its own and gets the restrictions Bookie advises. */
export async function advisoryRoutes(app: FastifyInstance, adv: AdvisoryDeps): Promise<void> {
  const common = { tags: ['advisory'], security: PARTNER_SECURITY };
  app.post<{ Body: Static<typeof AdvisoryBetRequest> }>(
    '/bets/advisory',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'adviseBet',
        summary: 'Report a bet taken on the partner side and get the advised restrictions',
        description:
          'Bookie runs its one decision on the bet as it is now (events, markets, odds, bet stop, bet type, limits, ' +
          'exposure, bet interval) and answers 201 with the bet as recorded and every restriction it advises, each ' +
          'with its context. Nothing is decided: the partner may ignore the advice, though skipping anything but ' +
          '`max_bet` points to an integration problem. Advisory bets never count in exposure. A repeat of the ' +
          'same request answers the same; another body under the id is 409.',
        body: AdvisoryBetRequest,
        response: { 201: AdvisoryAnswer, ...errorAnswers(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => reply.code(201).send(await adviseBet(adv, partnerOf(req).whiteLabelId, req.body)),
  );
  app.put<{ Params: Static<typeof PartnerBetParams>; Body: Static<typeof AdvisoryBetUpdate> }>(
    '/bets/advisory/:bet_id',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'updateAdvisoryBet',
        summary: 'Report the whole new state of an advisory bet',
        description:
          'Every change of a selection status, cash-out or bet status is reported with the full state, which ' +
          'replaces the stored one (a selection missing from the update is removed) and is kept as a new version; ' +
          'the same state again changes nothing. 400 for invalid parameters (do not retry those), 404 for an ' +
          'unknown bet, 409 when a settled bet would go back to accepted. Retry any other failure.',
        params: PartnerBetParams,
        body: AdvisoryBetUpdate,
        response: { 200: AdvisoryUpdateAnswer, ...errorAnswers(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => updateAdvisoryBet(adv, partnerOf(req).whiteLabelId, req.params.bet_id, req.body),
  );
  app.get<{ Params: Static<typeof PartnerBetParams> }>(
    '/bets/advisory/:bet_id/versions',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'getAdvisoryBetVersions',
        summary: 'Every state an advisory bet was reported in',
        description:
          'The versions of an advisory bet, oldest first: the first report, then each changed update.',
        params: PartnerBetParams,
        response: { 200: AdvisoryVersions, ...errorAnswers(401, 403, 404, 429) },
      },
    },
    async (req) => advisoryBetVersions(adv, partnerOf(req).whiteLabelId, req.params.bet_id),
  );
}
