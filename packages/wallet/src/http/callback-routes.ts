import { type CallbackHandler, fastifyCallbackPlugin } from '@bookie/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FaultDecision, Faults } from './faults.js';

const decisions = new WeakMap<FastifyRequest, FaultDecision>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Serves the callbacks (spec 01 "Endpoints", D13, D14) through the SDK's Fastify plugin, inside a scope whose hooks
 * inject the configured faults (see faults.ts): 500 before processing in `onRequest`; delay, lost answer, dropped
 * connection and 201 in `onSend`, after the callback was applied and its answer stored.
 */
export async function callbackRoutes(
  app: FastifyInstance,
  handler: CallbackHandler,
  faults: Faults,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const d = faults.decide();
      decisions.set(request, d);
      if (d.error500) {
        return reply
          .code(500)
          .header('content-type', 'application/json')
          .send('{"error":{"code":"injected_failure"}}');
      }
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      const d = decisions.get(request);
      if (!d || d.error500) return payload;
      if (d.delayMs > 0) await sleep(d.delayMs);
      if (d.drop) {
        request.raw.socket?.destroy();
        return payload;
      }
      if (d.lostAnswer) {
        reply.code(500).header('content-type', 'application/json');
        return '{"error":{"code":"injected_lost_answer"}}';
      }
      if (d.created201 && reply.statusCode === 204) reply.code(201);
      return payload;
    });
    await scope.register(fastifyCallbackPlugin(handler));
  });
}
