import { BetView } from '@bookie/contracts';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/wiring.js';
import { cancelBet } from './cancel-bet.js';
import { decideQuarantined } from './decide-quarantined.js';
import { settlementDeps } from './deps.js';
import { listQuarantined } from './list-quarantine.js';
import type { OperatorActionInput, OperatorActionResult } from './operator-action.js';
import { parseWindow, reconcileReport, reportCsv } from './reconcile-report.js';
import { refundBet } from './refund-bet.js';
import { resettleBet } from './resettle-bet.js';
import { betLedger, countQuarantined } from './settlement.repo.js';
import type { SettlementConsumer } from './settlement-consumer.js';
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
    from: Type.String({ format: 'date-time', description: 'window start (inclusive), ISO 8601' }),
    to: Type.String({ format: 'date-time', description: 'window end (exclusive), ISO 8601' }),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
    bets: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'include every checked bet (CSV: the per-bet table)',
      }),
    ),
  },
  { additionalProperties: false },
);

const QuarantineStatus = Type.Union(
  [Type.Literal('quarantined'), Type.Literal('retry'), Type.Literal('resolved'), Type.Literal('skipped')],
  {
    description:
      'quarantined: waiting for an operator; retry: asked to retry; resolved: a retry passed; skipped',
  },
);
const QuarantineEntry = Type.Object(
  {
    v: Type.String({ description: 'the log version of the entry' }),
    status: QuarantineStatus,
    error: Type.String({ description: 'the last error processing it' }),
    attempts: Type.Integer({ description: 'failed attempts so far' }),
    type: Type.Optional(Type.String({ description: 'the entry type, e.g. bet_rollback' })),
    quarantined_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    examples: [
      {
        v: '1042',
        status: 'quarantined',
        error: 'invalid byte sequence for encoding "UTF8": 0x00',
        attempts: 5,
        type: 'bet_rollback',
        quarantined_at: '2030-06-01T12:00:05.000Z',
        updated_at: '2030-06-01T12:00:05.000Z',
      },
    ],
  },
);
const QuarantineList = Type.Object(
  { items: Type.Array(QuarantineEntry) },
  { examples: [{ items: QuarantineEntry.examples }] },
);
const QuarantineQuery = Type.Object(
  { status: Type.Optional(QuarantineStatus) },
  { additionalProperties: false },
);
const VersionParams = Type.Object({
  v: Type.String({ pattern: '^[1-9][0-9]{0,18}$', description: 'the log version of the quarantined entry' }),
});
const DecisionBody = Type.Object(
  { reason: Reason },
  { additionalProperties: false, examples: [{ reason: 'market ids fixed by trading; replay it' }] },
);
/** The one error body of Bookie's API (validation_error names the field in `details.field`). */
const ErrorAnswer = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  { examples: [{ error: { code: 'not_found', message: 'no quarantined entry 1042', details: {} } }] },
);
const errors = { '4xx': ErrorAnswer, '5xx': ErrorAnswer };

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
      return {
        items: rows.map((r) => ({
          seq: r.seq,
          kind: r.kind,
          amount: r.amount,
          settle_type: r.settle_type,
          payout: r.payout,
          request_id: r.request_id,
          cause: r.cause,
          at: new Date(r.at).toISOString(),
        })),
      };
    },
  );

  app.get(
    '/admin/settlement/status',
    { preHandler: app.requireAdmin, schema: { ...common, summary: "This process's settlement consumer" } },
    async () => {
      const quarantined = await countQuarantined(deps.database.db, deps.settlement?.name ?? 'settlement');
      if (quarantined > 0) {
        app.log.error(
          { quarantined },
          'settlement: log entries are in quarantine (bookie settlement quarantine list)',
        );
      }
      return { ...(deps.settlement?.status() ?? { leader: false, running: false }), quarantine: quarantined };
    },
  );

  app.get<{ Querystring: Static<typeof QuarantineQuery> }>(
    '/admin/settlement/quarantine',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'listSettlementQuarantine',
        summary: 'Log entries settlement gave up on after repeated failures',
        description:
          'Entries the settlement consumer failed to process several times in a row (never for a database or network outage), oldest first, with their last error. Settlement goes on past them; retry or skip each.',
        querystring: QuarantineQuery,
        response: { 200: QuarantineList, ...errors },
      },
    },
    async (req) => ({
      items: await listQuarantined(sd, req.query.status ? { status: req.query.status } : {}),
    }),
  );
  const decision = (name: 'retry' | 'skip', summary: string, description: string) =>
    app.post<{ Params: Static<typeof VersionParams>; Body: Static<typeof DecisionBody> }>(
      `/admin/settlement/quarantine/:v/${name}`,
      {
        preHandler: app.requireAdmin,
        schema: {
          ...common,
          operationId: name === 'retry' ? 'retrySettlementQuarantine' : 'skipSettlementQuarantine',
          summary,
          description,
          params: VersionParams,
          body: DecisionBody,
          response: { 200: QuarantineEntry, ...errors },
        },
      },
      async (req) => {
        const out = await decideQuarantined(sd, {
          v: req.params.v,
          decision: name,
          reason: req.body.reason,
          actor: actor(req),
        });
        if (name === 'retry') (deps.settlement as SettlementConsumer | undefined)?.requestRetry?.();
        return out;
      },
    );
  decision(
    'retry',
    'Process a quarantined log entry again',
    'Audited. The leading settlement consumer processes the entry again: resolved when it passes, back in quarantine with the new error when not. 404 when no such entry, 409 when it is resolved already.',
  );
  decision(
    'skip',
    'Leave a quarantined log entry unprocessed for good',
    'Audited. The entry stays listed as skipped. 404 when no such entry, 409 when it is resolved already.',
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
