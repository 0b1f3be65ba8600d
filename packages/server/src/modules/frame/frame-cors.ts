import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FrameDeps } from './deps.js';
import { listAllowedOrigins } from './frame.repo.js';

const PREFIX = '/frame-api/';

/**
 * The origins of every white label's `allowed_origins`, read through a cache of `ttlMs` (default 2 s), so that a
 * change made with `bookie wl update --allow-origin` or the admin API applies within that time in every process.
 */
export function knownOrigins(deps: Pick<FrameDeps, 'database' | 'clock'>, ttlMs = 2000) {
  let cached: { at: number; origins: Promise<Set<string>> } | undefined;
  return {
    has(origin: string): Promise<boolean> {
      const now = deps.clock.now();
      if (!cached || now - cached.at >= ttlMs) {
        const origins = listAllowedOrigins(deps.database.db).then((lists) => new Set(lists.flat()));
        origins.catch(() => {
          cached = undefined;
        });
        cached = { at: now, origins };
      }
      return cached.origins.then((s) => s.has(origin));
    },
  };
}

/**
 * CORS of the frame API (DECISIONS D49), in two steps. A request with an `Origin` that some white label allows gets
 * `Access-Control-Allow-Origin` (so the frame can read even a 401 and ask for a new token); a preflight (`OPTIONS`,
 * which carries no token) is answered 204 with the allowed methods and headers, or 403 for an unknown origin. Then
 * {@link checkSessionOrigin}, after the session is known, refuses an origin that the session's own white label
 * does not list. No cookies are used (`Authorization: Bearer` only), so credentials are never allowed.
 */
export function installFrameCors(
  app: FastifyInstance,
  origins: { has(origin: string): Promise<boolean> },
): void {
  const cors = async (req: FastifyRequest, reply: FastifyReply, origin: string) => {
    const allowed = await origins.has(origin);
    if (allowed) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    if (req.method !== 'OPTIONS') return;
    if (!allowed)
      throw new DomainError('forbidden', `origin ${origin} may not call the frame API`, { field: 'origin' });
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'authorization, content-type')
      .header('access-control-max-age', '600')
      .send();
  };
  // a request without an Origin (or not to the frame API) passes at once, with no promise
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (!origin || !req.url.startsWith(PREFIX)) return done();
    cors(req, reply, origin).then(() => {
      // an answered preflight ends here
      if (!reply.sent) done();
    }, done);
  });
}

/**
 * preHandler after `requirePlayer`: a browser request (`Origin` given) must come from an origin of the session's
 * own white label.
 *
 * @throws DomainError forbidden naming `origin`.
 */
export async function checkSessionOrigin(
  deps: Pick<FrameDeps, 'whiteLabels'>,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const origin = req.headers.origin;
  if (!origin || !req.player) return;
  const wl = await deps.whiteLabels.get(req.player.whiteLabelId);
  if (!wl.allowedOrigins.includes(origin)) {
    reply.removeHeader('access-control-allow-origin');
    throw new DomainError('forbidden', `origin ${origin} is not allowed for this white label`, {
      field: 'origin',
    });
  }
}
