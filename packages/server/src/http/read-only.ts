import { DomainError } from '@bookie/core';
import type { FastifyInstance } from 'fastify';

/** What a feed node serves from its replica: the feed, the frame's catalogue, health, metrics and the API docs. */
const FEED_NODE_PATHS = [
  /^\/all$/,
  /^\/log$/,
  /^\/frame-api\/sport-events(\/[^/]+)?$/,
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/metrics$/,
  /^\/openapi\.json$/,
  /^\/docs(\/.*)?$/,
];

/**
 * A feed node (`--role feed`) reads a streaming replica, which cannot be written: every request other than a read
 * of the feed, the frame's catalogue, health and metrics is refused with 403 `forbidden`, before authentication,
 * so nothing tries to write. Partners get their tokens, place bets and call everything else on the primary's
 * processes.
 */
export function installFeedNodeGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && FEED_NODE_PATHS.some((p) => p.test(path))) return;
    throw new DomainError(
      'forbidden',
      'this is a read-only feed node: it serves /all, /log and the frame catalogue; send other requests to the primary processes',
      { role: 'feed' },
    );
  });
}
