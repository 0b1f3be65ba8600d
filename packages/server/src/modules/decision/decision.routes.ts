import { errorAnswers, RestrictionsAnswer, RestrictionsQuery } from '@bookie/contracts';
import type { FastifyInstance } from 'fastify';
import { PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import { getRestrictions } from './get-restrictions.js';

const errors = (...codes: number[]) => errorAnswers(...codes);

/** What the decision's route needs: the one decision's deps. */
export interface DecisionRoutesDeps {
  placement: Parameters<typeof getRestrictions>[0];
}

/**
 * Partners' `GET /restrictions` (D35): the one decision on a bet given as query parameters, without placing it.
 */
export async function decisionRoutes(app: FastifyInstance, deps: DecisionRoutesDeps): Promise<void> {
  const partner = { tags: ['risk'], security: PARTNER_SECURITY };

  app.get<{ Querystring: RestrictionsQuery }>(
    '/restrictions',
    {
      preHandler: app.requirePartner,
      schema: {
        ...partner,
        operationId: 'getRestrictions',
        summary: 'What placing a bet now would decide, without placing it',
        description:
          "The one decision (integrity, odds strategy, bet type, limits, exposure, the player's risk group) on a bet " +
          'given as query parameters. Without `stake` it answers the largest acceptable stake, which a bet ' +
          "slip shows. No bet is recorded; a player's first request is (the group it gives, raised by " +
          "`recommended_max_payout`, stays the player's: later values are ignored).",
        querystring: RestrictionsQuery,
        response: { 200: RestrictionsAnswer, ...errors(400, 401, 403, 429) },
      },
    },
    async (req) => getRestrictions(deps.placement, partnerOf(req).whiteLabelId, req.query),
  );
}
