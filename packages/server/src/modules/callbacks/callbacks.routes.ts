import {
  CallbackDeliveryList,
  CallbackDeliveryParams,
  CallbackDeliveryQuery,
  CallbackDeliveryView,
} from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_SECURITY } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import type { CallbacksService } from './callbacks.service.js';
import { listCallbackDeliveries, showCallbackDelivery } from './list-deliveries.js';
import { retryCallbackDelivery } from './retry-delivery.js';

/** A partner user's own white label: it sees and retries only that white label's deliveries. */
function ownWhiteLabel(req: FastifyRequest): string | undefined {
  return req.user && req.user.role !== 'operator' ? (req.user.whiteLabelId ?? undefined) : undefined;
}

/**
 * Operator API of the outbox: see pending and failing deliveries, with attempts and last error; retry now. A
 * partner user of the backoffice sees and retries its own white label's deliveries only.
 */
export async function callbacksRoutes(
  app: FastifyInstance,
  deps: Pick<PlatformServices, 'database'> & { callbacks: Pick<CallbacksService, 'dispatcher'> },
): Promise<void> {
  app.get<{ Querystring: CallbackDeliveryQuery }>(
    '/admin/callbacks',
    {
      preHandler: app.requireUserOrAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'listCallbackDeliveries',
        description:
          'The callback outbox, newest first: every delivery with its status, attempts, next attempt and last error. Filter by status, failing, bet or white label; page with `before`.',
        summary: 'List callback deliveries (newest first)',
        security: ADMIN_SECURITY,
        querystring: CallbackDeliveryQuery,
        response: {
          200: CallbackDeliveryList,
        },
      },
    },
    async (req) => {
      const q = req.query;
      const limit = q.limit ? Number(q.limit) : 100;
      if (limit < 1 || limit > 1000)
        throw new DomainError('validation_error', 'querystring.limit: must be 1..1000', {
          field: 'querystring.limit',
        });
      const items = await listCallbackDeliveries(deps.database.db, {
        limit,
        ...(q.status ? { status: q.status } : {}),
        ...(q.failing === 'true' ? { failing: true } : {}),
        ...(q.bet_id ? { betId: q.bet_id } : {}),
        ...(q.white_label_id ? { whiteLabelId: q.white_label_id } : {}),
        ...(ownWhiteLabel(req) ? { whiteLabelId: ownWhiteLabel(req) } : {}),
        ...(q.before ? { beforeId: BigInt(q.before) } : {}),
      });
      return { items };
    },
  );
  app.get<{ Params: { id: string } }>(
    '/admin/callbacks/:id',
    {
      preHandler: app.requireUserOrAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'getCallbackDelivery',
        description:
          'One callback delivery by outbox id or `request_id`, with the body and Foreign-Params it sends.',
        summary: 'One callback delivery, with its body',
        security: ADMIN_SECURITY,
        params: CallbackDeliveryParams,
        response: { 200: CallbackDeliveryView },
      },
    },
    async (req) => showCallbackDelivery(deps.database.db, req.params.id, ownWhiteLabel(req)),
  );
  app.post<{ Params: { id: string } }>(
    '/admin/callbacks/:id/retry',
    {
      preHandler: app.requireUserOrAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'retryCallbackDelivery',
        description:
          'Makes a pending delivery due now (after the partner fixed its server) instead of waiting for the next step of the backoff.',
        summary: 'Retry a pending callback delivery now',
        security: ADMIN_SECURITY,
        params: CallbackDeliveryParams,
        response: { 200: CallbackDeliveryView },
      },
    },
    async (req) => {
      const view = await retryCallbackDelivery(deps.database.db, req.params.id, ownWhiteLabel(req));
      deps.callbacks.dispatcher.kick();
      return view;
    },
  );
}
