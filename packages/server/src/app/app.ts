import { ApiErrorBody, errorAnswers } from '@bookie/contracts';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { pingDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { ADMIN_SECURITY, installAuth } from '../http/auth.js';
import { installErrorHandler } from '../http/error-handler.js';
import { installStrictJson } from '../http/json.js';
import { installLandingPage } from '../http/landing.js';
import { example, openApiOptions } from '../http/openapi.js';
import { installFeedNodeGuard } from '../http/read-only.js';
import { lazyRequestLogger } from '../http/request-logger.js';
import { installTextRule } from '../http/text.js';
import { auditUserChanges } from '../modules/users/audit-user-changes.js';
import { registerModules } from './modules.js';
import { tlsServerFactory } from './tls.js';
import type { AppDeps } from './wiring.js';

/** Version of the HTTP API, sent as X-Api-Version where the spec asks for it (spec 02 "Versioning"). */
export const API_VERSION = '2';

/**
 * Builds the Fastify application: error handling, OpenAPI at `/openapi.json`, the API reference at
 * `/docs`, `/healthz`, `/readyz`, a landing page at `/`, and every module's routes. Does not listen.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // HTTPS and mutual TLS when configured (docs/adr/0004-trading-feed.md)
    ...(deps.config.tls ? { serverFactory: tlsServerFactory(deps.config.tls) as never } : {}),
    loggerInstance: deps.logger as FastifyBaseLogger,
    // each request's child logger is made when the request first logs, not for every request
    childLoggerFactory: lazyRequestLogger,
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
  if (deps.config.scaleOut.role === 'feed') installFeedNodeGuard(app);
  installStrictJson(app);
  installTextRule(app);
  await app.register(rateLimit, { global: false });
  await app.register(cookie);
  app.addSchema(ApiErrorBody);
  installAuth(app, deps, deps.authenticator);
  if (deps.users) auditUserChanges(app, deps);
  const host = deps.config.host.includes(':') ? `[${deps.config.host}]` : deps.config.host;
  await app.register(
    swagger,
    openApiOptions({
      url: `${deps.config.tls ? 'https' : 'http'}://${host}:${deps.config.port || 8080}`,
      description: 'this Bookie server (as configured)',
    }),
  );
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  const Status = (status: string) =>
    example(Type.Object({ status: Type.String() }, { title: 'ServiceStatus' }), { status });
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['ops'],
        summary: 'Liveness: the process answers',
        description:
          'Liveness: answers 200 `{"status": "ok"}` as long as the process runs. No authentication; for load ' +
          'balancers and orchestrators.',
        security: [],
        response: { 200: Status('ok') },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['ops'],
        summary: 'Readiness: database reachable, not stopping',
        description:
          'Readiness: 200 `{"status": "ready"}` when the database answers; 503 `{"status": "stopping"}` or ' +
          '`{"status": "database unavailable"}` otherwise. No authentication.',
        security: [],
        response: { 200: Status('ready'), 503: Status('stopping') },
      },
    },
    async (_req, reply) => {
      if (deps.lifecycle.isStopping) return reply.status(503).send({ status: 'stopping' });
      try {
        await pingDatabase(deps.database);
      } catch {
        return reply.status(503).send({ status: 'database unavailable' });
      }
      return { status: 'ready' };
    },
  );

  app.post(
    '/admin/migrations',
    {
      preHandler: app.requireAdmin,
      schema: {
        operationId: 'applyMigrations',
        tags: ['ops'],
        summary: 'Apply pending database migrations (what `bookie migrate --url` calls)',
        description:
          'Applies every pending migration of the database this server runs on and answers the names applied. A ' +
          'server migrates its database when it starts, so a running one answers `{"applied": []}` unless a newer ' +
          'process shares its database. Operator only.',
        security: ADMIN_SECURITY,
        response: {
          200: Type.Object(
            { applied: Type.Array(Type.String(), { description: 'migration names applied now, in order' }) },
            { examples: [{ applied: [] }] },
          ),
          ...errorAnswers(401, 403),
        },
      },
    },
    async () => ({ applied: await migrateToLatest(deps.database.db) }),
  );

  installLandingPage(app);
  await registerModules(app, deps);
  return app;
}
