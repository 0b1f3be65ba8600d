import { BET_STATUS_CODES, BetView, describeCodes, SETTLE_TYPE_CODES } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import { ADMIN_SECURITY, actorOf } from '../../http/auth.js';
import { example } from '../../http/openapi.js';
import { toBetView } from '../bets/bet-view.js';
import { loadBets } from '../bets/bets.repo.js';
import { cancelBet } from './cancel-bet.js';
import { decideQuarantined } from './decide-quarantined.js';
import type { ConsumerDeps } from './deps.js';
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
const ReasonBody = example(
  Type.Object({ reason: Reason }, { additionalProperties: false, title: 'OperatorReasonBody' }),
  { reason: 'match abandoned, refund per policy' },
);
const CancelBody = example(
  Type.Object(
    {
      reason: Reason,
      selections: Type.Optional(
        Type.Array(Type.Integer({ minimum: 0 }), {
          minItems: 1,
          description: 'selection indexes (0-based) to cancel; default all',
        }),
      ),
    },
    { additionalProperties: false, title: 'CancelSelectionsBody' },
  ),
  { reason: 'second leg played behind closed doors', selections: [1] },
);
const ResettleBody = example(
  Type.Object(
    {
      reason: Reason,
      reinstate: Type.Optional(
        Type.Boolean({ description: 'drop results set by an operator (refund, void, cancel) first' }),
      ),
    },
    { additionalProperties: false, title: 'ResettleBody' },
  ),
  { reason: 'result corrected by the data provider', reinstate: false },
);
const ActionResult = example(
  Type.Object(
    {
      action: Type.String(),
      transition: Type.String({ description: 'settled | unsettled | resettled | none' }),
      callbacks: Type.Integer({ description: 'callbacks written for the partner' }),
      bet: Type.Object(BetView.properties),
    },
    { title: 'OperatorActionResult' },
  ),
  {
    action: 'refund',
    transition: 'settled',
    callbacks: 1,
    bet: {
      ...(BetView.examples as BetView[])[0]!,
      status: 6,
      state: 'refunded_manually',
      payout: '10.000000',
    },
  },
);
const LedgerEntry = Type.Object(
  {
    seq: Type.Integer(),
    kind: Type.String({ description: 'settle | unsettle' }),
    amount: Type.String({ description: 'settle_amount or unsettle_amount, 6 decimals' }),
    settle_type: Type.Union([Type.Integer(), Type.Null()], { description: describeCodes(SETTLE_TYPE_CODES) }),
    payout: Type.Union([Type.String(), Type.Null()]),
    request_id: Type.String(),
    cause: Type.Union([Type.String(), Type.Null()]),
    at: Type.String(),
  },
  { title: 'SettlementLedgerEntry' },
);
const ledgerExample = {
  seq: 1,
  kind: 'settle',
  amount: '25.000000',
  settle_type: 1,
  payout: '25.000000',
  request_id: '7c6b5a49-3827-4160-9f5e-4d3c2b1a0f9e',
  cause: 'results',
  at: '2024-05-01T20:00:00.000Z',
};
const BetWithLedger = example(
  Type.Object({ bet: BetView, settlements: Type.Array(LedgerEntry) }, { title: 'BetWithSettlements' }),
  { bet: (BetView.examples as BetView[])[0], settlements: [ledgerExample] },
);
const Ledger = example(Type.Object({ items: Type.Array(LedgerEntry) }, { title: 'SettlementLedger' }), {
  items: [ledgerExample],
});
const SettlementStatus = example(
  Type.Object(
    {
      leader: Type.Boolean({ description: 'this process settles (one process at a time)' }),
      processed: Type.Optional(Type.String({ description: 'feed version of the last entry processed' })),
      entries: Type.Optional(Type.Integer()),
      settled: Type.Optional(Type.Integer()),
      unsettled: Type.Optional(Type.Integer()),
      resettled: Type.Optional(Type.Integer()),
      callbacks: Type.Optional(Type.Integer()),
      failures: Type.Optional(Type.Integer({ description: 'entries that failed and were retried' })),
    },
    { title: 'SettlementStatus', additionalProperties: true },
  ),
  {
    leader: true,
    processed: '18',
    entries: 18,
    settled: 1,
    unsettled: 0,
    resettled: 0,
    callbacks: 1,
    failures: 0,
  },
);
const ReconciliationReport = example(
  Type.Unknown({
    title: 'ReconciliationReport',
    description: 'JSON `{from, to, generated_at, totals, bets, cash_outs}`; CSV with format=csv',
  }),
  {
    from: '2024-05-01T00:00:00.000Z',
    to: '2024-06-01T00:00:00.000Z',
    generated_at: '2024-06-01T08:00:00.000Z',
    totals: [
      {
        white_label_id: '0b6f2c1e-6a4f-4a8e-9a51-3f1c2d4e5a60',
        currency: 'EUR',
        bets_accepted: 1,
        stakes_accepted: '10.000000',
        settles: 1,
        settle_amount: '25.000000',
        unsettles: 0,
        unsettle_amount: '0.000000',
        net_payout: '25.000000',
        unsettled_bets: 0,
        open_bets: 0,
        open_exposure: '0.000000',
        ledger_mismatches: 0,
        cash_outs: 1,
        cash_out_stake: '4.000000',
        cash_out_paid: '5.130000',
        cash_outs_through_callbacks: 1,
        cash_out_callbacks_delivered: 1,
        cash_out_callbacks_paid: '5.130000',
        cash_out_callbacks_pending: 0,
        cash_out_mismatches: 0,
      },
    ],
    bets: { checked: 1, mismatched: 0, mismatches: [] },
    cash_outs: { mismatched: 0, mismatches: [] },
  },
);
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
  if (req.user) return actorOf(req);
  const who = req.headers['x-operator'];
  return `admin-api:${typeof who === 'string' && who ? who.slice(0, 100) : 'operator'}`;
}

/** What the settlement admin routes need: settlement's deps, and this process's consumer once it runs. */
export interface SettlementRoutesDeps {
  database: Database;
  settlement: ConsumerDeps;
  /** The settlement consumer of this process, once the background work started it. */
  consumer(): SettlementConsumer | undefined;
}

/**
 * Settlement's admin API (operator token): manual refund, void, cancel and resettle of a bet (audited), a bet's
 * settlement ledger, the consumer's status, and the reconciliation report.
 */
export async function settlementRoutes(app: FastifyInstance, deps: SettlementRoutesDeps): Promise<void> {
  const sd = deps.settlement;
  const common = { tags: ['settlement'], security: ADMIN_SECURITY };
  const action = (
    path: string,
    operationId: string,
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
        schema: {
          ...common,
          operationId,
          summary,
          description:
            `${summary}. Audited (the X-Operator header names who, kept with the reason); the callbacks it causes ` +
            'are written in the same transaction and delivered by the outbox. Answers what changed and the bet.',
          params: BetIdParams,
          body,
          response: { 200: ActionResult },
        },
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
    'refundBet',
    'Refund a bet manually: every selection 7 (refunded manually), the stake paid back (status 6)',
    ReasonBody,
    (i) => refundBet(sd, i),
  );
  action(
    'void',
    'voidBetManually',
    'Void a bet: every selection 6 (cancelled), the stake paid back (status 5)',
    ReasonBody,
    (i) => voidBet(sd, i),
  );
  action(
    'cancel',
    'cancelBetSelections',
    'Cancel selections of a bet (all by default) and recalculate it on the others',
    CancelBody,
    (i) => cancelBet(sd, i),
  );
  action(
    'resettle',
    'resettleBet',
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
        operationId: 'getBetWithSettlements',
        description:
          `A bet (status ${describeCodes(BET_STATUS_CODES)}) with its settlement ledger: every settle and ` +
          'unsettle sent to the partner.',
        summary: 'A bet with its settlement ledger',
        params: BetIdParams,
        response: { 200: BetWithLedger },
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
        operationId: 'listBetSettlements',
        description:
          'The settlement ledger of a bet: every `/bet/settle` and `/bet/unsettle` sent, with amounts and causes. The sum of settles minus unsettles is the current payout.',
        summary: "A bet's settlement ledger: its settle and unsettle callbacks",
        params: BetIdParams,
        response: { 200: Ledger },
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
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'getSettlementStatus',
        description:
          'Whether this process leads settlement (one process settles at a time) and whether its consumer runs.',
        summary: "This process's settlement consumer",
        response: { 200: SettlementStatus },
      },
    },
    async () => {
      const quarantined = await countQuarantined(deps.database.db, deps.consumer()?.name ?? 'settlement');
      if (quarantined > 0) {
        app.log.error(
          { quarantined },
          'settlement: log entries are in quarantine (bookie settlement quarantine list)',
        );
      }
      return { ...(deps.consumer()?.status() ?? { leader: false, running: false }), quarantine: quarantined };
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
        response: { 200: QuarantineList },
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
          response: { 200: QuarantineEntry },
        },
      },
      async (req) => {
        const out = await decideQuarantined(sd, {
          v: req.params.v,
          decision: name,
          reason: req.body.reason,
          actor: actor(req),
        });
        if (name === 'retry') deps.consumer()?.requestRetry?.();
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
        operationId: 'getReconciliationReport',
        description:
          "Per white label and currency: stakes accepted, payouts settled (settles minus unsettles), unsettled amounts, open exposure and the cash-out orders accepted in the window, with the check that each frame bet's order reached the wallet through `/bet/cash-out-orders/accepted` with its amount (`cash_outs.mismatches`); with `bets=true`, each bet's ledger check. `from` and `to` take a date (`2024-05-01`, midnight UTC) or a date-time; `to` defaults to now. JSON or CSV.",
        summary: 'Reconciliation report: per white label and currency, and the per-bet ledger check',
        querystring: ReportQuery,
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
