import { ApiErrorBody } from '@bookie/contracts';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { sql } from 'kysely';
import { installAuth } from '../http/auth.js';
import { installErrorHandler } from '../http/error-handler.js';
import { installStrictJson } from '../http/json.js';
import { installTextRule } from '../http/text.js';
import { registerModules } from './modules.js';
import { tlsServerFactory } from './tls.js';
import type { AppDeps } from './wiring.js';

/** Version of the HTTP API, sent as X-Api-Version where the spec asks for it (spec 02 "Versioning"). */
export const API_VERSION = '2';

/**
 * Builds the Fastify application: error handling, OpenAPI at `/openapi.json`, the API reference at
 * `/docs`, `/healthz`, `/readyz`, and every module's routes. Does not listen.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // HTTPS and mutual TLS when configured (docs/adr/0004-trading-feed.md)
    ...(deps.config.tls ? { serverFactory: tlsServerFactory(deps.config.tls) as never } : {}),
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace',
    }),
    bodyLimit: deps.config.auth.bodyLimitBytes,
    // the client address is the socket's; X-Forwarded-For counts only from TRUSTED_PROXIES (ADR 0005)
    trustProxy: deps.config.auth.trustedProxies.length > 0 ? deps.config.auth.trustedProxies : false,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });
  installErrorHandler(app);
  installStrictJson(app);
  installTextRule(app);
  await app.register(rateLimit, { global: false });
  await app.register(cookie);
  app.addSchema(ApiErrorBody);
  installAuth(app, deps, deps.authenticator);
  await app.register(swagger, {
    // shared schemas keep their $id as their component name (ApiErrorBody), so generated clients name them well
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookie API',
        version: '0.1.0',
        description: 'Bookie: trading feed, bets, callbacks, bonuses. See docs/ in the repository.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          admin: { type: 'http', scheme: 'bearer', description: 'operator token (BOOKIE_ADMIN_TOKEN)' },
          basic: { type: 'http', scheme: 'basic', description: 'OAuth client id and secret' },
          // OpenAPI 3.1's mutualTLS scheme (the plugin's types know only 3.0's)
          clientCertificate: {
            type: 'mutualTLS',
            description:
              'a client certificate bound to the white label (bookie wl add-certificate); feed only',
          } as unknown as { type: 'http'; scheme: string },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'bookie_session',
            description:
              'backoffice session (POST /backoffice/api/session); every change also sends X-CSRF-Token. An ' +
              'operator user names the white label of partner operations in X-White-Label-Id.',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { tags: ['ops'], summary: 'Liveness: the process answers' } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { schema: { tags: ['ops'], summary: 'Readiness: database reachable, not stopping' } },
    async (_req, reply) => {
      if (deps.lifecycle.isStopping) return reply.status(503).send({ status: 'stopping' });
      try {
        await sql`select 1`.execute(deps.database.db);
      } catch {
        return reply.status(503).send({ status: 'database unavailable' });
      }
      return { status: 'ready' };
    },
  );

  await registerModules(app, deps);
  return app;
}
