import type { FastifyInstance } from 'fastify';
import type { IntegrationDeps } from './deps.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { mcpOAuthRoutes } from './mcp/mcp-oauth.routes.js';
import { partnerCheckRoutes } from './partner-check/partner-check.routes.js';
import { sandboxRoutes } from './sandbox/sandbox.routes.js';

/** Every route only the integration environment serves; `openapi` marks the REST operations of `/openapi.json`. */
export const INTEGRATION_ROUTES: readonly {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  openapi: boolean;
}[] = [
  { method: 'GET', url: '/.well-known/oauth-protected-resource', openapi: false },
  { method: 'GET', url: '/.well-known/oauth-protected-resource/mcp', openapi: false },
  { method: 'GET', url: '/.well-known/oauth-authorization-server', openapi: false },
  { method: 'POST', url: '/mcp/register', openapi: false },
  { method: 'GET', url: '/mcp/authorize', openapi: false },
  { method: 'POST', url: '/mcp/authorize', openapi: false },
  { method: 'POST', url: '/mcp/token', openapi: false },
  { method: 'POST', url: '/mcp', openapi: false },
  { method: 'GET', url: '/mcp', openapi: false },
  { method: 'DELETE', url: '/mcp', openapi: false },
  { method: 'POST', url: '/integration/partner-check', openapi: true },
  { method: 'POST', url: '/integration/sandbox/sport-events/:id/markets/:market_id/result', openapi: true },
  { method: 'POST', url: '/integration/sandbox/sport-events/:id/markets/:market_id/odds', openapi: true },
  { method: 'POST', url: '/integration/sandbox/sessions/expire', openapi: true },
];

/**
 * The integration environment (DECISIONS D51, D52): the MCP server with its authorization server, the partner check
 * and the sandbox helpers. Registered only when `BOOKIE_ENV=integration`; in production none of these routes exist,
 * so they answer 404 and are absent from `/openapi.json`.
 */
export async function integrationRoutes(app: FastifyInstance, deps: IntegrationDeps): Promise<void> {
  if (deps.config.environment !== 'integration') return;
  await mcpOAuthRoutes(app, deps);
  await mcpRoutes(app, deps);
  await partnerCheckRoutes(app, deps);
  await sandboxRoutes(app, deps);
}
