import { type CallbackHandler, fastifyCallbackPlugin } from '@bookie/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FaultDecision, type Faults, NO_FAULT } from './faults.js';

const decisions = new WeakMap<FastifyRequest, FaultDecision>();

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
    // callback-style hooks (no promise per request), and nothing kept for a request that draws no fault
    scope.addHook('onRequest', (request, reply, done) => {
      const d = faults.decide();
      if (d === NO_FAULT) return done();
      decisions.set(request, d);
      if (d.error500) {
        reply
          .code(500)
          .header('content-type', 'application/json')
          .send('{"error":{"code":"injected_failure"}}');
        return;
      }
      done();
    });
    scope.addHook('onSend', (request, reply, payload, done) => {
      const d = decisions.get(request);
      if (!d || d.error500) return done(null, payload);
      const faulted = () => {
        if (d.drop) {
          request.raw.socket?.destroy();
          return done(null, payload);
        }
        if (d.lostAnswer) {
          reply.code(500).header('content-type', 'application/json');
          return done(null, '{"error":{"code":"injected_lost_answer"}}');
        }
        if (d.created201 && reply.statusCode === 204) reply.code(201);
        done(null, payload);
      };
      if (d.delayMs > 0) setTimeout(faulted, d.delayMs);
      else faulted();
    });
    await scope.register(fastifyCallbackPlugin(handler));
  });
}
