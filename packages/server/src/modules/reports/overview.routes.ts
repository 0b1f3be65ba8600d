import { errorAnswers, OperatorOverview, OverviewQuery } from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ADMIN_SECURITY } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import type { RiskBook } from '../risk/index.js';
import { reportWindow } from './bet-reports.js';
import { operatorOverview } from './operator-overview.js';

/** The operator home's figures (`GET /admin/overview`), read by the backoffice's home screen. */
/** What the operator home's figures need: the database, the clock and the risk engine's limits. */
export interface OverviewRoutesDeps extends Pick<PlatformServices, 'database' | 'clock'> {
  risk: { book: Pick<RiskBook, 'get'> };
}

export async function overviewRoutes(app: FastifyInstance, deps: OverviewRoutesDeps): Promise<void> {
  app.get<{ Querystring: Static<typeof OverviewQuery> }>(
    '/admin/overview',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['reports (operator)'],
        security: ADMIN_SECURITY,
        operationId: 'getOperatorOverview',
        summary: 'The operator home: turnover, GGR, margin, liability, failing callbacks, settlement lag',
        description:
          'Over [from, to) (at most 92 days): per currency the turnover, GGR and margin and the bets accepted and ' +
          'declined — every white label’s daily report (`GET /reports/daily`) summed — in total, per white label ' +
          'and per UTC day; and now: the open liability (total and the ten largest outcomes with their limits), ' +
          'callbacks failing per white label, settlement’s position, lag and quarantine, and the optional ' +
          'callbacks learnt unsupported.',
        querystring: OverviewQuery,
        response: { 200: OperatorOverview, ...errorAnswers(400, 401, 403) },
      },
    },
    async (req) =>
      operatorOverview(
        deps.database.db,
        await deps.risk.book.get(),
        reportWindow(req.query.from, req.query.to),
        new Date(deps.clock.now()),
      ),
  );
}
