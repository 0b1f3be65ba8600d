import {
  BetRollbackBody,
  BetStopBody,
  ChangesBody,
  CreateSportEventBody,
  describeCodes,
  errorAnswers,
  ODD_STATUS,
  ODD_STATUS_CODES,
  PatchMarketsBody,
  PutMarketsBody,
  SportEventAtVersion,
  SportEventIdParams,
  SportEventListQuery,
  SportEventSummaryList,
  TradingCommandResponse,
  UpdateFixtureBody,
  UpdateScoresBody,
} from '@bookie/contracts';
import type { FastifyInstance } from 'fastify';
import { applyChangesCommand } from './apply-changes.js';
import { createSportEvent } from './create-sport-event.js';
import { getSportEvent } from './get-sport-event.js';
import { listSportEvents } from './list-sport-events.js';
import { patchMarkets } from './patch-markets.js';
import { putMarkets } from './put-markets.js';
import { recordBetRollback } from './record-bet-rollback.js';
import { setBetStop } from './set-bet-stop.js';
import { updateFixture } from './update-fixture.js';
import { updateScores } from './update-scores.js';
import type { TradingDeps } from './writer.js';

const answer = (r: { id: string; version: bigint }) => ({ id: r.id, version: r.version.toString() });

/**
 * The trading API (`/trading/...`, operator token): commands that append entries to the feed log (spec 02,
 * DECISIONS D21, D24). Each answers `{id, version}`; a bad path, unknown event or bad value answers 400 naming the
 * field, and nothing is written.
 */
export async function tradingRoutes(app: FastifyInstance, deps: TradingDeps): Promise<void> {
  const common = { tags: ['trading'], security: [{ admin: [] }] };
  const ok = { 200: TradingCommandResponse };
  type WithId<B> = { Params: { id: string }; Body: B };

  app.post<{ Body: CreateSportEventBody }>(
    '/trading/sport-events',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'createSportEvent',
        description:
          'Creates a sport event with its fixture and markets and appends a `match_new` entry to the feed log. A bad value answers 400 naming the field and nothing is written.',
        summary: 'Create a sport event (appends match_new)',
        body: CreateSportEventBody,
        response: { 201: TradingCommandResponse },
      },
    },
    async (req, reply) => reply.status(201).send(answer(await createSportEvent(deps, req.body))),
  );

  app.get<{ Querystring: SportEventListQuery }>(
    '/trading/sport-events',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        security: [{ admin: [] }, { session: [] }],
        operationId: 'listSportEvents',
        summary: 'The live book: sport events, most recently changed first',
        description:
          'Each sport event with its fixture status, bet stop, market counts and version (operator token or an ' +
          'operator user). `status` filters by fixture status; `limit` 1..1000 (default 100).',
        querystring: SportEventListQuery,
        response: {
          200: SportEventSummaryList,
          ...errorAnswers(400, 401, 403),
        },
      },
    },
    async (req) => listSportEvents(deps.database.db, req.query),
  );

  app.get<{ Params: { id: string } }>(
    '/trading/sport-events/:id',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'getSportEvent',
        description:
          'The current snapshot of a sport event as the feed replicates it, with the feed version it is at.',
        summary: 'The current snapshot of a sport event and its version',
        params: SportEventIdParams,
        response: {
          200: SportEventAtVersion,
        },
      },
    },
    async (req) => {
      const r = await getSportEvent(deps, { id: req.params.id });
      return { version: r.version.toString(), sport_event: r.snapshot };
    },
  );

  app.patch<WithId<UpdateFixtureBody>>(
    '/trading/sport-events/:id/fixture',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'updateFixture',
        description:
          'Changes fixture fields (status, start time, competitors…) and appends a `match_update` with one change path per field.',
        summary: 'Change the fixture status and fields (appends match_update)',
        params: SportEventIdParams,
        body: UpdateFixtureBody,
        response: ok,
      },
    },
    async (req) => answer(await updateFixture(deps, { id: req.params.id, body: req.body })),
  );

  app.put<WithId<PutMarketsBody>>(
    '/trading/sport-events/:id/markets',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'putMarkets',
        description: 'Adds markets or replaces whole markets of a sport event and appends a `match_update`.',
        summary: 'Add or replace whole markets (appends match_update)',
        params: SportEventIdParams,
        body: PutMarketsBody,
        response: ok,
      },
    },
    async (req) => answer(await putMarkets(deps, { id: req.params.id, body: req.body })),
  );

  app.patch<WithId<PatchMarketsBody>>(
    '/trading/sport-events/:id/markets',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'patchMarkets',
        description:
          'Sets market statuses, odd values, odd statuses and `is_active`. Odd statuses are the results that settle ' +
          `bets: ${describeCodes(ODD_STATUS_CODES, { min: ODD_STATUS.WIN, max: ODD_STATUS.CANCELLED })}.`,
        summary:
          'Set market statuses, odd values, odd statuses (results) and is_active (appends match_update)',
        params: SportEventIdParams,
        body: PatchMarketsBody,
        response: ok,
      },
    },
    async (req) => answer(await patchMarkets(deps, { id: req.params.id, body: req.body })),
  );

  app.put<WithId<BetStopBody>>(
    '/trading/sport-events/:id/bet-stop',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'setBetStop',
        description:
          'Stops (`true`) or resumes (`false`) betting on the whole sport event; appends a `match_update`.',
        summary: 'Bet stop on or off (appends match_update)',
        params: SportEventIdParams,
        body: BetStopBody,
        response: ok,
      },
    },
    async (req) => answer(await setBetStop(deps, { id: req.params.id, betStop: req.body.bet_stop })),
  );

  app.patch<WithId<UpdateScoresBody>>(
    '/trading/sport-events/:id/scores',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'updateScores',
        description: "Updates competitors' scores and appends a `match_update`.",
        summary: 'Update scores (appends match_update)',
        params: SportEventIdParams,
        body: UpdateScoresBody,
        response: ok,
      },
    },
    async (req) => answer(await updateScores(deps, { id: req.params.id, body: req.body })),
  );

  app.post<WithId<ChangesBody>>(
    '/trading/sport-events/:id/changes',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'applyChanges',
        description:
          'Appends a raw `match_update`: change paths such as `markets/1/odds/2/value` with their new values, validated like the typed commands. For importers.',
        summary: 'Append a raw match_update (for importers; change paths as the feed writes them)',
        params: SportEventIdParams,
        body: ChangesBody,
        response: ok,
      },
    },
    async (req) => answer(await applyChangesCommand(deps, { id: req.params.id, changes: req.body.changes })),
  );

  app.post<WithId<BetRollbackBody>>(
    '/trading/sport-events/:id/bet-rollbacks',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'recordBetRollback',
        description:
          'Records that bets on the given markets placed between `dt_start` and `dt_end` are rolled back (for example after a wrong price), and appends a `bet_rollback` entry; affected bets are settled as refunds.',
        summary: 'Record a bet rollback (appends bet_rollback)',
        params: SportEventIdParams,
        body: BetRollbackBody,
        response: ok,
      },
    },
    async (req) => answer(await recordBetRollback(deps, { id: req.params.id, body: req.body })),
  );
}
