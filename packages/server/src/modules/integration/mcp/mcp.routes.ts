import { DomainError } from '@bookie/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../../http/error-handler.js';
import { authenticatePartner } from '../../auth/index.js';
import type { IntegrationDeps } from '../deps.js';
import { baseUrlOf, MCP_OAUTH_PATHS } from './mcp-oauth.routes.js';
import { createMcpServer, type RouteCaller } from './mcp-server.js';
import { type RestOperation, restOperations } from './rest-operations.js';

function refuse(request: FastifyRequest, reply: FastifyReply, err: DomainError): FastifyReply {
  if (err.code === 'unauthorized') {
    // RFC 9728 §5.1: tell the client where to find the authorization server
    const metadata = `${baseUrlOf(request)}${MCP_OAUTH_PATHS.protectedResource}/mcp`;
    reply.header(
      'WWW-Authenticate',
      `Bearer resource_metadata="${metadata}"${err.details?.error ? `, error="${String(err.details.error)}"` : ''}`,
    );
  }
  return reply.status(err.code === 'unauthorized' ? 401 : 403).send(errorBody(err));
}

/**
 * The MCP server at `/mcp` over Streamable HTTP (DECISIONS D52), stateless: each POST gets a fresh server and
 * transport, answered as JSON; GET (a server-initiated stream) and DELETE (ending a session) answer 405. The bearer
 * token is a partner access token issued through Bookie's MCP authorization (or `POST /oauth/token`); it is checked
 * like any partner request (revocation, allowlist) and passed on to every REST tool call, which runs the route
 * in-process with `inject` from the client's address. The tools are made once, when the app is ready, from the
 * OpenAPI document.
 */
export async function mcpRoutes(app: FastifyInstance, deps: IntegrationDeps): Promise<void> {
  let operations: RestOperation[] = [];
  app.addHook('onReady', async () => {
    operations = restOperations(app.swagger());
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header && /^Bearer +(\S+) *$/i.exec(header)?.[1];
    if (!token) return refuse(request, reply, new DomainError('unauthorized', 'missing bearer token'));
    try {
      await authenticatePartner(deps, { token, address: request.ip });
    } catch (err) {
      if (err instanceof DomainError && (err.code === 'unauthorized' || err.code === 'forbidden')) {
        return refuse(request, reply, err);
      }
      throw err;
    }
    const call: RouteCaller = async (req, bearer) => {
      const res = await app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: {
          authorization: `Bearer ${bearer ?? token}`,
          ...(req.payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
        remoteAddress: request.ip,
      });
      const type = res.headers['content-type'];
      return {
        status: res.statusCode,
        contentType: typeof type === 'string' ? type : undefined,
        body: res.body,
      };
    };
    const server = createMcpServer(operations, call);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(errorBody(new DomainError('internal_error', 'internal error'))));
      }
    }
  };
  app.post('/mcp', { schema: { hide: true } }, handler);
  // stateless: no server-initiated stream to open (GET) and no session to end (DELETE); 405 tells the client so
  // before any authentication, so a client does not start a second, concurrent token refresh for a stream
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('Allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP server is stateless' },
        id: null,
      });
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}
