import { BetView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/wiring.js';
import { toBetView } from '../bets/bet-view.js';
import { loadBets } from '../bets/bets.repo.js';
import { cancelBet } from './cancel-bet.js';
import { settlementDeps } from './deps.js';
import type { OperatorActionInput, OperatorActionResult } from './operator-action.js';
import { parseWindow, reconcileReport, reportCsv } from './reconcile-report.js';
import { refundBet } from './refund-bet.js';
import { resettleBet } from './resettle-bet.js';
import { betLedger } from './settlement.repo.js';
import { voidBet } from './void-bet.js';

const BetIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'why; kept in the audit log' });
const ReasonBody = Type.Object({ reason: Reason }, { additionalProperties: false });
const CancelBody = Type.Object(
  {
    reason: Reason,
    selections: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0 }), {
        minItems: 1,
        description: 'selection indexes (0-based) to cancel; default all',
      }),
    ),
  },
  { additionalProperties: false },
);
const ResettleBody = Type.Object(
  {
    reason: Reason,
    reinstate: Type.Optional(
      Type.Boolean({ description: 'drop results set by an operator (refund, void, cancel) first' }),
    ),
  },
  { additionalProperties: false },
);
const ActionResult = Type.Object({
  action: Type.String(),
  transition: Type.String({ description: 'settled | unsettled | resettled | none' }),
  callbacks: Type.Integer(),
  bet: Type.Object(BetView.properties),
});
const ReportQuery = Type.Object(
  {
    from: Type.String({
      description: 'window start (inclusive): an ISO 8601 date (midnight UTC) or date-time with offset',
      examples: ['2024-05-01'],
    }),
    to: Type.Optional(
      Type.String({
        description: 'window end (exclusive): an ISO 8601 date or date-time with offset; default now',
        examples: ['2024-06-01T00:00:00Z'],
      }),
    ),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
    bets: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'include every checked bet (CSV: the per-bet table)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A bet's settlement ledger rows as the admin API writes them. */
function ledgerView(rows: Awaited<ReturnType<typeof betLedger>>) {
  return rows.map((r) => ({
    seq: r.seq,
    kind: r.kind,
    amount: r.amount,
    settle_type: r.settle_type,
    payout: r.payout,
    request_id: r.request_id,
    cause: r.cause,
    at: new Date(r.at).toISOString(),
  }));
}

function actor(req: FastifyRequest): string {
  const who = req.headers['x-operator'];
  return `admin-api:${typeof who === 'string' && who ? who.slice(0, 100) : 'operator'}`;
}

/**
 * Settlement's admin API (operator token): manual refund, void, cancel and resettle of a bet (audited), a bet's
 * settlement ledger, the consumer's status, and the reconciliation report.
 */
export async function settlementRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const sd = settlementDeps(deps);
  const common = { tags: ['settlement'], security: [{ admin: [] }] };
  const action = (
    path: string,
    summary: string,
    body: typeof ReasonBody | typeof CancelBody | typeof ResettleBody,
    run: (input: OperatorActionInput) => Promise<OperatorActionResult>,
  ) =>
    app.post<{
      Params: Static<typeof BetIdParams>;
      Body: Static<typeof CancelBody> & Static<typeof ResettleBody>;
    }>(
      `/admin/bets/:id/${path}`,
      {
        preHandler: app.requireAdmin,
        schema: { ...common, summary, params: BetIdParams, body, response: { 200: ActionResult } },
      },
      async (req) =>
        run({
          betId: req.params.id,
          reason: req.body.reason,
          actor: actor(req),
          ...(req.body.selections ? { selections: req.body.selections } : {}),
          ...(req.body.reinstate ? { reinstate: true } : {}),
        }),
    );
  action(
    'refund',
    'Refund a bet manually: every selection 7 (refunded manually), the stake paid back (status 6)',
    ReasonBody,
    (i) => refundBet(sd, i),
  );
  action(
    'void',
    'Void a bet: every selection 6 (cancelled), the stake paid back (status 5)',
    ReasonBody,
    (i) => voidBet(sd, i),
  );
  action(
    'cancel',
    'Cancel selections of a bet (all by default) and recalculate it on the others',
    CancelBody,
    (i) => cancelBet(sd, i),
  );
  action(
    'resettle',
    'Recompute a bet from its current results (unsettle + settle when it changed)',
    ResettleBody,
    (i) => resettleBet(sd, i),
  );

  app.get<{ Params: Static<typeof BetIdParams> }>(
    '/admin/bets/:id',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        summary: 'A bet with its settlement ledger',
        params: BetIdParams,
      },
    },
    async (req) => {
      const [bet] = /^[0-9a-f-]{36}$/i.test(req.params.id)
        ? await loadBets(deps.database.db, [req.params.id])
        : [];
      if (!bet) throw new DomainError('not_found', `no bet ${req.params.id}`);
      return {
        bet: toBetView(bet),
        settlements: ledgerView(await betLedger(deps.database.db, req.params.id)),
      };
    },
  );

  app.get<{ Params: Static<typeof BetIdParams> }>(
    '/admin/bets/:id/settlements',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        summary: "A bet's settlement ledger (settle / unsettle callbacks, DECISIONS D12)",
        params: BetIdParams,
      },
    },
    async (req) => {
      const rows = /^[0-9a-f-]{36}$/i.test(req.params.id)
        ? await betLedger(deps.database.db, req.params.id)
        : [];
      return { items: ledgerView(rows) };
    },
  );

  app.get(
    '/admin/settlement/status',
    { preHandler: app.requireAdmin, schema: { ...common, summary: "This process's settlement consumer" } },
    async () => deps.settlement?.status() ?? { leader: false, running: false },
  );

  app.get<{ Querystring: Static<typeof ReportQuery> }>(
    '/admin/reports/reconcile',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        summary: 'Reconciliation report: per white label and currency, and the per-bet ledger check',
        querystring: ReportQuery,
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
