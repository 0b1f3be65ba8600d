import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isOAuthError, markOAuthRoutes } from '../../../http/oauth-errors.js';
import type { IntegrationDeps } from '../deps.js';
import {
  type AuthorizationRequest,
  authorizeMcpClient,
  checkAuthorizationRequest,
} from './authorize-mcp-client.js';
import { exchangeMcpToken } from './exchange-mcp-token.js';
import { registerMcpClient } from './register-mcp-client.js';

/** Paths of Bookie's MCP authorization server (docs/adr/0022-integration-environment.md). */
export const MCP_OAUTH_PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  register: '/mcp/register',
  authorize: '/mcp/authorize',
  token: '/mcp/token',
} as const;

/** The base URL the client used (scheme and host, as the request names them). */
export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const AUTH_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
] as const;

function authorizationParams(source: Record<string, unknown>): Partial<AuthorizationRequest> {
  const out: Record<string, string> = {};
  for (const k of AUTH_FIELDS) if (typeof source[k] === 'string') out[k] = source[k];
  return out;
}

/** The authorize page: the white label's client id and secret, with the authorization request carried along. */
function authorizePage(req: Partial<AuthorizationRequest>, error?: string): string {
  const hidden = AUTH_FIELDS.filter((k) => req[k] !== undefined)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(req[k] as string)}">`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Bookie · connect an MCP client</title></head>
  <body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto">
    <h1>Connect to Bookie's integration environment</h1>
    <p>An MCP client asks to act for your white label. Enter the client id and secret of one of your white label's
    OAuth credentials. Revoking that credential ends the client's access.</p>
    ${error ? `<p role="alert" style="color: #b00">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="${MCP_OAUTH_PATHS.authorize}">
      ${hidden}
      <label>Client id <input name="client_id_credential" autocomplete="username" required></label><br><br>
      <label>Client secret <input name="client_secret" type="password" autocomplete="current-password" required></label><br><br>
      <button type="submit">Authorize</button>
    </form>
  </body>
</html>
`;
}

/**
 * The MCP authorization server of the integration environment (MCP authorization spec; RFC 9728 protected resource
 * metadata, RFC 8414 authorization server metadata, RFC 7591 dynamic client registration, RFC 6749 authorization
 * code with PKCE (RFC 7636) and rotated refresh tokens). Bookie is the authorization server; its authorize page takes
 * the white label's client id and secret (DECISIONS D52). Not part of the REST API, so hidden from `/openapi.json`.
 */
export async function mcpOAuthRoutes(app: FastifyInstance, deps: IntegrationDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        const out: Record<string, string> = {};
        for (const [k, v] of new URLSearchParams(body as string)) out[k] = v;
        done(null, out);
      },
    );
    markOAuthRoutes(scope);
    const hide = { schema: { hide: true } };

    const protectedResource = async (request: FastifyRequest) => {
      const base = baseUrlOf(request);
      return {
        resource: `${base}/mcp`,
        authorization_servers: [base],
        bearer_methods_supported: ['header'],
        resource_name: 'Bookie integration environment (MCP)',
      };
    };
    scope.get(MCP_OAUTH_PATHS.protectedResource, hide, protectedResource);
    scope.get(`${MCP_OAUTH_PATHS.protectedResource}/mcp`, hide, protectedResource);

    scope.get(MCP_OAUTH_PATHS.authorizationServer, hide, async (request) => {
      const base = baseUrlOf(request);
      return {
        issuer: base,
        authorization_endpoint: `${base}${MCP_OAUTH_PATHS.authorize}`,
        token_endpoint: `${base}${MCP_OAUTH_PATHS.token}`,
        registration_endpoint: `${base}${MCP_OAUTH_PATHS.register}`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      };
    });

    scope.post(MCP_OAUTH_PATHS.register, hide, async (request, reply) => {
      const registered = await registerMcpClient(deps, request.body);
      return reply.status(201).header('Cache-Control', 'no-store').send(registered);
    });

    scope.get(MCP_OAUTH_PATHS.authorize, hide, async (request, reply) => {
      const params = authorizationParams(request.query as Record<string, unknown>);
      try {
        await checkAuthorizationRequest(deps, params, `${baseUrlOf(request)}/mcp`);
      } catch (err) {
        if (!isOAuthError(err)) throw err;
        return reply.status(400).type('text/html; charset=utf-8').send(authorizePage({}, err.message));
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send(authorizePage(params));
    });

    scope.post(MCP_OAUTH_PATHS.authorize, hide, async (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const params = authorizationParams(form);
      const clientId = typeof form.client_id_credential === 'string' ? form.client_id_credential : '';
      const clientSecret = typeof form.client_secret === 'string' ? form.client_secret : '';
      try {
        const location = await authorizeMcpClient(
          deps,
          params,
          { clientId, clientSecret },
          `${baseUrlOf(request)}/mcp`,
        );
        return reply.status(302).header('Location', location).send();
      } catch (err) {
        if (isOAuthError(err)) {
          return reply.status(400).type('text/html; charset=utf-8').send(authorizePage({}, err.message));
        }
        if (err instanceof DomainError && err.code === 'unauthorized') {
          return reply
            .status(401)
            .type('text/html; charset=utf-8')
            .send(authorizePage(params, 'The client id or secret is wrong, or the credential was revoked.'));
        }
        throw err;
      }
    });

    scope.post(MCP_OAUTH_PATHS.token, hide, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const params: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') params[k] = v;
      const tokens = await exchangeMcpToken(deps, params);
      return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(tokens);
    });
  });
}
