import { MetricsExposition } from '@bookie/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { BookieMetrics } from './metrics.js';

/**
 * `GET /metrics` for the operator's Prometheus: with the admin token on the main port, or without a token on the
 * separate `METRICS_PORT` (see {@link serveMetrics}).
 */
export async function metricsRoutes(
  app: FastifyInstance,
  deps: { metrics?: BookieMetrics | undefined },
): Promise<void> {
  const metrics = deps.metrics;
  if (!metrics) return;
  app.get(
    '/metrics',
    {
      preHandler: app.requireAdmin,
      schema: {
        operationId: 'getMetrics',
        tags: ['ops'],
        summary: "This process's Prometheus metrics",
        description:
          'Prometheus metrics of this process: bets by mode and outcome, decision time, the callback outbox per ' +
          'white label, callback attempts by status class, the feed head, its followers and their lag, ' +
          'settlement lag and quarantine, exposure per sport and phase, leadership per role, and the Node.js ' +
          'process defaults. Operator only (admin token), or on the separate metrics port without a token.',
        security: [{ admin: [] }],
        response: { 200: { content: { 'text/plain': { schema: MetricsExposition } } } },
      },
    },
    async (_req, reply) => {
      const { text, contentType } = await metrics.expose();
      return reply.type(contentType).send(text);
    },
  );
}

/**
 * Serves `/metrics` alone, without a token, on its own port (`METRICS_PORT`), for a Prometheus that reaches only
 * that port. Returns its URL and its stop.
 */
export async function serveMetrics(
  metrics: BookieMetrics,
  port: number,
  host: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_req, reply) => {
    const { text, contentType } = await metrics.expose();
    return reply.type(contentType).send(text);
  });
  const url = await app.listen({ port, host });
  return { url, close: () => app.close() };
}
