import { ReconcileReportQuery, ReconciliationReport } from '@bookie/contracts';
import type { FastifyInstance } from 'fastify';
import { ADMIN_SECURITY } from '../../http/auth.js';
import type { SettlementDeps } from '../settlement/index.js';
import { parseWindow, reconcileReport, reportCsv } from './reconcile-report.js';

/** What the reconcile route needs: settlement's deps, whose ledger and bets the report reads. */
export interface ReconcileRoutesDeps {
  settlement: SettlementDeps;
}

/**
 * The operator's reconciliation report, `GET /admin/reports/reconcile` (JSON or CSV), listed with the settlement
 * operations whose ledger it checks.
 */
export async function reconcileRoutes(app: FastifyInstance, deps: ReconcileRoutesDeps): Promise<void> {
  const sd = deps.settlement;
  const common = { tags: ['settlement'], security: ADMIN_SECURITY };

  app.get<{ Querystring: ReconcileReportQuery }>(
    '/admin/reports/reconcile',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'getReconciliationReport',
        description:
          "Per white label and currency: stakes accepted, payouts settled (settles minus unsettles), unsettled amounts, open exposure and the cash-out orders accepted in the window, with the check that each frame bet's order reached the wallet through `/bet/cash-out-orders/accepted` with its amount (`cash_outs.mismatches`); with `bets=true`, each bet's ledger check. `from` and `to` take a date (`2024-05-01`, midnight UTC) or a date-time; `to` defaults to now. JSON or CSV.",
        summary: 'Reconciliation report: per white label and currency, and the per-bet ledger check',
        querystring: ReconcileReportQuery,
        response: { 200: ReconciliationReport },
      },
    },
    async (req, reply) => {
      const { from, to } = parseWindow(req.query.from, req.query.to, 'query.');
      const report = await reconcileReport(sd, { from, to, perBet: req.query.bets === 'true' });
      if (req.query.format === 'csv') {
        return reply.type('text/csv; charset=utf-8').send(reportCsv(report, req.query.bets === 'true'));
      }
      return report;
    },
  );
}
