import { BetReport, DailyReport, errorAnswers, PartnerReportQuery, ReportCsv } from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import type { PlatformServices } from '../../platform/services.js';
import { betReport, dailyReport, reportWindow } from './bet-reports.js';
import { toCsv } from './csv.js';

const BET_COLUMNS = [
  'bet_id',
  'player_id',
  'created_at',
  'status',
  'type',
  'currency',
  'stake',
  'total_odds',
  'settle_amount',
  'settled_at',
] as const;
const DAILY_COLUMNS = [
  'day',
  'currency',
  'bets_placed',
  'bets_accepted',
  'bets_settled',
  'stake',
  'settled_stake',
  'settle_amount',
  'ggr',
  'advisory_bets',
  'advisory_stake',
] as const;

/**
 * Answers a report as JSON, or with `format=csv` as a CSV attachment named `filename` with `columns` in order.
 */
function answerReport<T extends Record<string, unknown>, R extends { items: T[] }>(
  reply: FastifyReply,
  format: string | undefined,
  report: R,
  csv: { filename: string; columns: readonly (keyof T & string)[] },
): R | FastifyReply {
  if (format !== 'csv') return report;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csv.filename}"`)
    .send(toCsv(csv.columns, report.items));
}

/** Partner REST bet reports (DECISIONS D54), JSON or CSV. */
export async function reportsRoutes(
  app: FastifyInstance,
  deps: Pick<PlatformServices, 'database'>,
): Promise<void> {
  const common = { tags: ['reports'], security: PARTNER_SECURITY, querystring: PartnerReportQuery };
  app.get<{ Querystring: Static<typeof PartnerReportQuery> }>(
    '/reports/bets',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'getBetReport',
        summary: 'Bet report: every bet placed in a window',
        description:
          'Every bet of the white label placed in [from, to) (at most 92 days, 100,000 bets), oldest first, with ' +
          'its status number, type, stake and current settle amount. `format=csv` answers text/csv.',
        response: {
          200: { content: { 'application/json': { schema: BetReport }, 'text/csv': { schema: ReportCsv } } },
          ...errorAnswers(400, 401, 403, 429),
        },
      },
    },
    async (req, reply) => {
      const report = await betReport(
        deps.database.db,
        partnerOf(req).whiteLabelId,
        reportWindow(req.query.from, req.query.to),
      );
      return answerReport(reply, req.query.format, report, { filename: 'bets.csv', columns: BET_COLUMNS });
    },
  );
  app.get<{ Querystring: Static<typeof PartnerReportQuery> }>(
    '/reports/daily',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'getDailyReport',
        summary: 'Daily report: bets, stakes, settle amounts and GGR per day and currency',
        description:
          'Per UTC day of placement and currency in [from, to) (at most 92 days): bets placed, accepted and ' +
          'settled; accepted stakes; the settled bets’ stakes, settle amounts and GGR (stakes − settle amounts); apart, ' +
          'the advisory bets first reported that day and the stakes of those not declined. ' +
          '`format=csv` answers text/csv.',
        response: {
          200: {
            content: { 'application/json': { schema: DailyReport }, 'text/csv': { schema: ReportCsv } },
          },
          ...errorAnswers(400, 401, 403, 429),
        },
      },
    },
    async (req, reply) => {
      const report = await dailyReport(
        deps.database.db,
        partnerOf(req).whiteLabelId,
        reportWindow(req.query.from, req.query.to),
      );
      return answerReport(reply, req.query.format, report, { filename: 'daily.csv', columns: DAILY_COLUMNS });
    },
  );
}
