import {
  AdminBetParams,
  BET_STATUS_CODES,
  BetWithSettlements,
  CancelSelectionsBody,
  describeCodes,
  OperatorActionResult,
  OperatorReasonBody,
  QuarantineDecisionBody,
  QuarantineEntry,
  QuarantineList,
  QuarantineQuery,
  QuarantineVersionParams,
  ResettleBody,
  SettlementLedger,
  SettlementStatus,
} from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import { ADMIN_SECURITY, actorOf } from '../../http/auth.js';
import { loadBets, toBetView } from '../bets/index.js';
import type { SettlementConsumer } from './consumer/settlement-consumer.js';
import type { ConsumerDeps } from './deps.js';
import { cancelBet } from './operator-actions/cancel-bet.js';
import type {
  OperatorActionResult as ActionOutcome,
  OperatorActionInput,
} from './operator-actions/operator-action.js';
import { refundBet } from './operator-actions/refund-bet.js';
import { resettleBet } from './operator-actions/resettle-bet.js';
import { voidBet } from './operator-actions/void-bet.js';
import { decideQuarantined } from './quarantine/decide-quarantined.js';
import { listQuarantined } from './quarantine/list-quarantine.js';
import { countQuarantined } from './quarantine.repo.js';
import { betLedger } from './settlement.repo.js';

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
    body: typeof OperatorReasonBody | typeof CancelSelectionsBody | typeof ResettleBody,
    run: (input: OperatorActionInput) => Promise<ActionOutcome>,
  ) =>
    app.post<{
      Params: AdminBetParams;
      Body: CancelSelectionsBody & ResettleBody;
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
          params: AdminBetParams,
          body,
          response: { 200: OperatorActionResult },
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
    OperatorReasonBody,
    (i) => refundBet(sd, i),
  );
  action(
    'void',
    'voidBetManually',
    'Void a bet: every selection 6 (cancelled), the stake paid back (status 5)',
    OperatorReasonBody,
    (i) => voidBet(sd, i),
  );
  action(
    'cancel',
    'cancelBetSelections',
    'Cancel selections of a bet (all by default) and recalculate it on the others',
    CancelSelectionsBody,
    (i) => cancelBet(sd, i),
  );
  action(
    'resettle',
    'resettleBet',
    'Recompute a bet from its current results (unsettle + settle when it changed)',
    ResettleBody,
    (i) => resettleBet(sd, i),
  );

  app.get<{ Params: AdminBetParams }>(
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
        params: AdminBetParams,
        response: { 200: BetWithSettlements },
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

  app.get<{ Params: AdminBetParams }>(
    '/admin/bets/:id/settlements',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'listBetSettlements',
        description:
          'The settlement ledger of a bet: every `/bet/settle` and `/bet/unsettle` sent, with amounts and causes. The sum of settles minus unsettles is the current payout.',
        summary: "A bet's settlement ledger: its settle and unsettle callbacks",
        params: AdminBetParams,
        response: { 200: SettlementLedger },
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

  app.get<{ Querystring: QuarantineQuery }>(
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
    app.post<{ Params: QuarantineVersionParams; Body: QuarantineDecisionBody }>(
      `/admin/settlement/quarantine/:v/${name}`,
      {
        preHandler: app.requireAdmin,
        schema: {
          ...common,
          operationId: name === 'retry' ? 'retrySettlementQuarantine' : 'skipSettlementQuarantine',
          summary,
          description,
          params: QuarantineVersionParams,
          body: QuarantineDecisionBody,
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
}
