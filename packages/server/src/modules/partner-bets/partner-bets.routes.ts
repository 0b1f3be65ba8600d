import {
  errorAnswers,
  PartnerBet,
  PartnerBetActionAnswer,
  PartnerBetActionBody,
  PartnerBetPage,
  PartnerBetParams,
  PartnerBetQuery,
} from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { actorOf, PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import { findBet } from '../bets/index.js';
import { getPartnerBet } from '../mts/index.js';
import type { SettlementDeps } from '../settlement/index.js';
import { cancelBetBeforeSettlement, voidBetBeforeSettlement } from '../settlement/index.js';
import { listWhiteLabelBetsPage } from './list-white-label-bets.js';

/** What the partner's bet routes need: the database, and settlement (to cancel a bet before it settles). */
export interface PartnerBetsRoutesDeps {
  database: Database;
  settlement: SettlementDeps;
}

/**
 * Partner REST of bets (DECISIONS D54): every bet of the white label (`GET /bets`, filters and cursor paging), one
 * bet in the D29 shape, and cancel / void before settlement. Scoped to the caller's white label: another white
 * label's bet answers 404.
 */
export async function partnerBetsRoutes(app: FastifyInstance, deps: PartnerBetsRoutesDeps): Promise<void> {
  const common = { tags: ['bets'], security: PARTNER_SECURITY };
  const sd = deps.settlement;
  app.get<{ Querystring: Static<typeof PartnerBetQuery> }>(
    '/bets',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'listBets',
        summary: 'List the bets of the white label',
        description:
          'Every bet of the white label (frame bets; MTS and advisory bets as they land), newest first. Filters: ' +
          '`player_id`, `status` (a bet status number), `from` and `to` (placement time, [from, to)). Pass `next` as ' +
          '`cursor` for the following page.',
        querystring: PartnerBetQuery,
        response: { 200: PartnerBetPage, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (req) =>
      listWhiteLabelBetsPage(deps.database.db, partnerOf(req).whiteLabelId, {
        ...(req.query.player_id !== undefined ? { playerId: req.query.player_id } : {}),
        ...(req.query.status !== undefined ? { status: req.query.status } : {}),
        ...(req.query.from !== undefined ? { from: req.query.from } : {}),
        ...(req.query.to !== undefined ? { to: req.query.to } : {}),
        ...(req.query.cursor !== undefined ? { cursor: req.query.cursor } : {}),
        ...(req.query.limit !== undefined ? { limit: req.query.limit } : {}),
      }),
  );
  app.get<{ Params: Static<typeof PartnerBetParams> }>(
    '/bets/:bet_id',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'getBet',
        summary: 'One bet of the white label',
        description:
          'Any bet of the white label in the partner bet-object shape; another white label’s bet is 404.',
        params: PartnerBetParams,
        response: { 200: PartnerBet, ...errorAnswers(401, 403, 404, 429) },
      },
    },
    async (req) => getPartnerBet(deps.database.db, partnerOf(req).whiteLabelId, req.params.bet_id),
  );
  const action = (
    verb: 'cancel' | 'void',
    summary: string,
    description: string,
    run: typeof cancelBetBeforeSettlement,
  ) =>
    app.post<{ Params: Static<typeof PartnerBetParams>; Body: Static<typeof PartnerBetActionBody> }>(
      `/bets/:bet_id/${verb}`,
      {
        preHandler: app.requirePartner,
        schema: {
          ...common,
          operationId: verb === 'cancel' ? 'cancelBet' : 'voidBet',
          summary,
          description,
          params: PartnerBetParams,
          body: PartnerBetActionBody,
          response: { 200: PartnerBetActionAnswer, ...errorAnswers(400, 401, 403, 404, 409, 429) },
        },
      },
      async (req) => {
        // a reported bet is named by the partner's id
        const found = await findBet(deps.database.db, partnerOf(req).whiteLabelId, req.params.bet_id);
        const r = await run(sd, {
          whiteLabelId: partnerOf(req).whiteLabelId,
          betId: found?.row.id ?? req.params.bet_id,
          reason: req.body.reason,
          actor: actorOf(req),
        });
        const bet = await getPartnerBet(deps.database.db, partnerOf(req).whiteLabelId, req.params.bet_id);
        return { transition: r.transition, callbacks: r.callbacks, bet };
      },
    );
  action(
    'cancel',
    'Cancel a bet before settlement (stake back, status 5)',
    'Every selection becomes cancelled (odd status 6) with the reason; the bet settles as refunded (status 5) and ' +
      'the stake goes back to the player in a `/bet/settle` callback (settle_type 2). 409 once the bet is settled ' +
      'or when it was never accepted. Audited.',
    cancelBetBeforeSettlement,
  );
  action(
    'void',
    'Void a bet before settlement (stake back, status 6)',
    'The bookmaker’s decision: every selection becomes refunded manually (odd status 7); the bet settles as ' +
      'refunded manually (status 6) with a `/bet/settle` callback paying the stake back. 409 once the bet is ' +
      'settled or when it was never accepted. Audited.',
    voidBetBeforeSettlement,
  );
}
