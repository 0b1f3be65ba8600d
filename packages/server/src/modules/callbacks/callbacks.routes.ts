import { CallbackDeliveryQuery, CallbackDeliveryView } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/wiring.js';
import { listCallbackDeliveries, showCallbackDelivery } from './list-deliveries.js';
import { retryCallbackDelivery } from './retry-delivery.js';

const IdParams = Type.Object({ id: Type.String({ description: 'outbox id or request_id' }) });

/** Operator API of the outbox: see pending and failing deliveries, with attempts and last error; retry now. */
export async function callbacksRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get<{ Querystring: CallbackDeliveryQuery }>(
    '/admin/callbacks',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['operator'],
        summary: 'List callback deliveries (newest first)',
        security: [{ admin: [] }],
        querystring: CallbackDeliveryQuery,
        response: { 200: Type.Object({ items: Type.Array(CallbackDeliveryView) }) },
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
        ...(q.before ? { beforeId: BigInt(q.before) } : {}),
      });
      return { items };
    },
  );
  app.get<{ Params: { id: string } }>(
    '/admin/callbacks/:id',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['operator'],
        summary: 'One callback delivery, with its body',
        security: [{ admin: [] }],
        params: IdParams,
        response: { 200: CallbackDeliveryView },
      },
    },
    async (req) => showCallbackDelivery(deps.database.db, req.params.id),
  );
  app.post<{ Params: { id: string } }>(
    '/admin/callbacks/:id/retry',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['operator'],
        summary: 'Retry a pending callback delivery now',
        security: [{ admin: [] }],
        params: IdParams,
        response: { 200: CallbackDeliveryView },
      },
    },
    async (req) => {
      const view = await retryCallbackDelivery(deps.database.db, req.params.id);
      deps.callbacks.dispatcher.kick();
      return view;
    },
  );
}
