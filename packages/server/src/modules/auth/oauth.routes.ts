import { OAuthErrorBody, OAuthTokenResponse } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REALM } from '../../http/auth.js';
import type { AuthDeps } from './deps.js';
import { issueAccessToken } from './issue-access-token.js';

type OAuthErrorCode = OAuthErrorBody['error'];

/** An RFC 6749 §5.2 error: its code, HTTP status and description. */
export class OAuthError extends Error {
  constructor(
    public readonly error: OAuthErrorCode,
    public readonly status: number,
    message: string,
    /** Answer with `WWW-Authenticate: Basic` (invalid_client). */
    public readonly basicChallenge = false,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

const invalidRequest = (m: string) => new OAuthError('invalid_request', 400, m);
const invalidClient = (m: string) => new OAuthError('invalid_client', 401, m, true);

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

function sendError(reply: FastifyReply, e: OAuthError, retryAfter?: number): FastifyReply {
  if (e.basicChallenge) reply.header('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
  if (retryAfter !== undefined) reply.header('Retry-After', retryAfter);
  return reply
    .status(e.status)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .send({ error: e.error, error_description: e.message });
}

/**
 * `POST /oauth/token`: the client credentials grant (RFC 6749 §4.4, DECISIONS D27). Client authentication by
 * HTTP Basic or by `client_id`/`client_secret` in the body; bodies as application/x-www-form-urlencoded (the
 * RFC's) or JSON. Errors follow RFC 6749 §5.2 with the RFC's body `{error, error_description}`, not Bookie's
 * error body, because that is what OAuth clients parse (docs/adr/0005-tenancy.md).
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
    scope.setErrorHandler((raw: FastifyError | DomainError | OAuthError, request, reply) => {
      if (raw instanceof OAuthError) return sendError(reply, raw);
      if (raw instanceof DomainError) {
        if (raw.code === 'validation_error') return sendError(reply, invalidRequest(raw.message));
        if (raw.code === 'unauthorized') return sendError(reply, invalidClient(raw.message));
      }
      const status = (raw as FastifyError).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return sendError(reply, new OAuthError('invalid_request', status === 413 ? 413 : 400, raw.message));
      }
      request.log.error({ err: raw }, 'token endpoint failed');
      return sendError(reply, new OAuthError('server_error', 500, 'internal error'));
    });
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
            return sendError(
              reply,
              new OAuthError('temporarily_unavailable', 429, 'too many token requests; retry later'),
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
          throw new OAuthError('unsupported_grant_type', 400, `grant_type ${p.grant_type} is not supported`);
        }
        if (p.scope !== undefined && p.scope.trim() !== '') {
          throw new OAuthError('invalid_scope', 400, 'no scopes are defined; omit scope');
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
          throw new OAuthError(
            'invalid_client',
            401,
            'client authentication required (Basic or client_id/client_secret)',
            true,
          );
        }
        try {
          const t = await issueAccessToken(deps, creds);
          return { access_token: t.accessToken, token_type: 'Bearer', expires_in: t.expiresIn };
        } catch (err) {
          if (err instanceof DomainError && err.code === 'unauthorized') throw invalidClient(err.message);
          throw err;
        }
      },
    );
  });
}
