import type { FastifyInstance } from 'fastify';
import type { IntegrationDeps } from './deps.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { mcpOAuthRoutes } from './mcp/mcp-oauth.routes.js';
import { partnerCheckRoutes } from './partner-check/partner-check.routes.js';

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
}
