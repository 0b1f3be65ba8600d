import {
  describeCodes,
  ODD_STATUS,
  ODD_STATUS_CODES,
  SandboxChangeResponse,
  SandboxExpireSessionBody,
  SandboxExpireSessionResponse,
  SandboxMarketParams,
  SandboxMoveOddsBody,
  SandboxResultMarketBody,
} from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorResponse } from '../../../http/openapi.js';
import type { IntegrationDeps } from '../deps.js';
import { expireSessionNow } from './expire-session-now.js';
import { moveOdds } from './move-odds.js';
import { resultMarketNow } from './result-market.js';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  500: ErrorResponse,
};

function whiteLabelOf(request: FastifyRequest): string {
  if (!request.partner) throw new DomainError('unauthorized', 'partner authentication required');
  return request.partner.whiteLabelId;
}

/**
 * The sandbox helpers of the integration environment (DECISIONS D51): result a market now, move odds, expire a
 * session. A partner's token calls them; the book is the integration environment's shared one.
 */
export async function sandboxRoutes(app: FastifyInstance, deps: IntegrationDeps): Promise<void> {
  const common = { tags: ['integration'], security: [{ bearer: [] }] };
  type Market<B> = { Params: SandboxMarketParams; Body: B };

  app.post<Market<SandboxResultMarketBody>>(
    '/integration/sandbox/sport-events/:id/markets/:market_id/result',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'sandboxResultMarket',
        summary: 'Result a market now (integration sandbox)',
        description:
          'Resolves one market at once: the listed odds get their status ' +
          `(${describeCodes(ODD_STATUS_CODES, { min: ODD_STATUS.WIN, max: ODD_STATUS.CANCELLED })}), ` +
          'every other odd loses, the market becomes resulted. Settlement then settles ' +
          'the bets on it and the callbacks follow. Integration environment only.',
        params: SandboxMarketParams,
        body: SandboxResultMarketBody,
        response: { 200: SandboxChangeResponse, ...errors },
      },
    },
    async (req) => {
      whiteLabelOf(req);
      return resultMarketNow(deps, { id: req.params.id, marketId: req.params.market_id, body: req.body });
    },
  );

  app.post<Market<SandboxMoveOddsBody>>(
    '/integration/sandbox/sport-events/:id/markets/:market_id/odds',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'sandboxMoveOdds',
        summary: 'Move odds of a market (integration sandbox)',
        description:
          'Sets new decimal odds on odds of one market, as a trader would; the change goes out on the feed. ' +
          'Integration environment only.',
        params: SandboxMarketParams,
        body: SandboxMoveOddsBody,
        response: { 200: SandboxChangeResponse, ...errors },
      },
    },
    async (req) => {
      whiteLabelOf(req);
      return moveOdds(deps, { id: req.params.id, marketId: req.params.market_id, body: req.body });
    },
  );

  app.post<{ Body: SandboxExpireSessionBody }>(
    '/integration/sandbox/sessions/expire',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'sandboxExpireSession',
        summary: 'Expire a player session now (integration sandbox)',
        description:
          'A player session token of the calling white label reaches its expiry now, as if its lifetime had ' +
          'passed. Integration environment only.',
        body: SandboxExpireSessionBody,
        response: { 200: SandboxExpireSessionResponse, ...errors },
      },
    },
    async (req) => expireSessionNow(deps, { whiteLabelId: whiteLabelOf(req), token: req.body.token }),
  );
}
