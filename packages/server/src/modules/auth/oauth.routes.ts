import { OAuthErrorBody, OAuthTokenResponse } from '@bookie/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { markOAuthRoutes, oauthError } from '../../http/oauth-errors.js';
import type { AuthDeps } from './deps.js';
import { issueAccessToken } from './issue-access-token.js';

const invalidRequest = (m: string) => oauthError('invalid_request', m);
const invalidClient = (m: string) => oauthError('invalid_client', m);

/** application/x-www-form-urlencoded → object; a repeated parameter is invalid_request (RFC 6749 §3.2). */
function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    if (Object.hasOwn(out, k)) throw invalidRequest(`parameter ${k} is repeated`);
    out[k] = v;
  }
  return out;
}

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1), or undefined. */
function basicCredentials(request: FastifyRequest): { clientId: string; clientSecret: string } | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(h);
  if (!m?.[1]) throw invalidClient('unsupported or malformed Authorization header; use Basic');
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient('malformed Basic credentials');
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { clientId: dec(decoded.slice(0, colon)), clientSecret: dec(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient('malformed Basic credentials');
  }
}

/**
 * `POST /oauth/token`: the client credentials grant (RFC 6749 §4.4, DECISIONS D27). Client authentication by
 * HTTP Basic or by `client_id`/`client_secret` in the body; bodies as application/x-www-form-urlencoded (the
 * RFC's) or JSON. Errors follow RFC 6749 §5.2 with the RFC's body `{error, error_description}`, not Bookie's
 * error body, because that is what OAuth clients parse (docs/adr/0005-tenancy.md): the routes are marked OAuth routes
 * and the one error handler answers so (http/oauth-errors.ts).
 */
export async function oauthRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        try {
          done(null, parseForm(body as string));
        } catch (err) {
          done(err as Error, undefined);
        }
      },
    );
    markOAuthRoutes(scope);
    const { tokenRateLimit, rateLimitWindowMs } = deps.config.auth;
    const limit =
      tokenRateLimit > 0 && scope.hasDecorator('createRateLimit')
        ? scope.createRateLimit({
            max: tokenRateLimit,
            timeWindow: rateLimitWindowMs,
            keyGenerator: (req) => `token:${req.ip}`,
          })
        : undefined;

    scope.post(
      '/oauth/token',
      {
        schema: {
          tags: ['auth'],
          operationId: 'createAccessToken',
          description:
            'The OAuth 2.0 client credentials grant: `grant_type=client_credentials` with the client id and secret by HTTP Basic or in the body (form or JSON). Answers a bearer token for the partner API, valid `expires_in` seconds; reuse it until shortly before it expires. Errors follow RFC 6749 (`{error, error_description}`), not the Bookie error body.',
          summary: 'Exchange client credentials for a short-lived access token (RFC 6749 §4.4)',
          consumes: ['application/x-www-form-urlencoded', 'application/json'],
          security: [{ basic: [] }, {}],
          response: { 200: OAuthTokenResponse, '4xx': OAuthErrorBody },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
        if (limit) {
          const r = await limit(request);
          if (!r.isAllowed && r.isExceeded) {
            throw oauthError(
              'temporarily_unavailable',
              'too many token requests; retry later',
              r.ttlInSeconds,
            );
          }
        }
        const body = request.body;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          throw invalidRequest('expected a form or JSON object body with grant_type');
        }
        const params = body as Record<string, unknown>;
        for (const [k, v] of Object.entries(params)) {
          if (typeof v !== 'string') throw invalidRequest(`parameter ${k} must be a string`);
        }
        const p = params as Record<string, string | undefined>;
        if (!p.grant_type) throw invalidRequest('missing parameter grant_type');
        if (p.grant_type !== 'client_credentials') {
          throw oauthError('unsupported_grant_type', `grant_type ${p.grant_type} is not supported`);
        }
        if (p.scope !== undefined && p.scope.trim() !== '') {
          throw oauthError('invalid_scope', 'no scopes are defined; omit scope');
        }
        const basic = basicCredentials(request);
        if (
          basic &&
          (p.client_secret !== undefined || (p.client_id !== undefined && p.client_id !== basic.clientId))
        ) {
          throw invalidRequest('use one client authentication method: Basic or the body, not both');
        }
        const creds =
          basic ??
          (p.client_id !== undefined && p.client_secret !== undefined
            ? { clientId: p.client_id, clientSecret: p.client_secret }
            : undefined);
        if (!creds) {
          throw invalidClient('client authentication required (Basic or client_id/client_secret)');
        }
        // a wrong credential is a DomainError unauthorized: answered invalid_client
        const t = await issueAccessToken(deps, creds);
        return { access_token: t.accessToken, token_type: 'Bearer', expires_in: t.expiresIn };
      },
    );
  });
}
