import { timingSafeEqual } from 'node:crypto';
import { findTextViolation } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import type {} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { PlatformServices } from '../platform/services.js';

/** Who is calling a partner route: a white label, through one of its OAuth credentials. */
export interface PartnerPrincipal {
  whiteLabelId: string;
  credentialId: string;
  clientId: string;
}

/** Who is calling a frame (player) route: a session token of DECISIONS D26. */
export interface PlayerSession {
  token: string;
  /** Stable id of the session (the token itself is stored only hashed). */
  sessionId?: string;
  whiteLabelId: string;
  /** Empty for a read-only viewer (D26). */
  playerId: string;
  currency: string;
  locale: string;
  /** Passed back to the partner as the Foreign-Params header of callbacks (D7). */
  params: Record<string, unknown>;
  context: Record<string, unknown>;
}

/** A backoffice user signed in with a session cookie (DECISIONS D53). */
export interface BackofficeUser {
  id: string;
  email: string;
  role: 'operator' | 'partner_admin' | 'partner_viewer';
  /** The partner user's white label; null for an operator. */
  whiteLabelId: string | null;
  sessionId: string;
}

/**
 * Resolves a backoffice session cookie (the users module implements it): undefined when the request carries no
 * session cookie; throws DomainError unauthorized for an unknown, ended or expired session, forbidden for a change
 * (any method but GET, HEAD, OPTIONS) without the session's CSRF token.
 */
export interface UserAuthenticator {
  user(request: FastifyRequest): Promise<BackofficeUser | undefined>;
  /** Called once a user is known on a change: keeps what the change is about to alter, for the audit log. */
  beforeChange(request: FastifyRequest): Promise<void>;
}

/** OpenAPI security of partner operations: the bearer token, or a backoffice session (cookie + CSRF header). */
export const PARTNER_SECURITY: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }];
/** OpenAPI security of operator operations: the operator token, or an operator user's session. */
export const ADMIN_SECURITY: Array<Record<string, string[]>> = [{ admin: [] }, { session: [] }];

/** Who made a change, for the audit log: `user:<email>`, `partner:<client_id>` or `admin-api`. */
export function actorOf(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.email}`;
  if (request.partner) return `partner:${request.partner.clientId}`;
  return 'admin-api';
}

/**
 * Who made an operator change, for the audit log: the user or partner as {@link actorOf} names them, or with the
 * operator token `admin-api:<x-operator header>` (`admin-api:operator` without the header).
 */
export function operatorOf(request: FastifyRequest): string {
  if (request.user) return actorOf(request);
  const who = request.headers['x-operator'];
  return `admin-api:${typeof who === 'string' && who ? who.slice(0, 100) : 'operator'}`;
}

/** True for a method that changes nothing (no CSRF token needed, allowed to viewers). */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * Resolves a request's credentials. Implemented by the tenancy module (auth), which checks the bearer token,
 * revocation and the IP allowlist; throws DomainError unauthorized (401, RFC 6750) or forbidden (403).
 */
export interface Authenticator {
  partner(request: FastifyRequest, reply: FastifyReply): Promise<PartnerPrincipal>;
  player(request: FastifyRequest, reply: FastifyReply): Promise<PlayerSession>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts a client certificate bound to a white label instead of a bearer token (the feed). */
    certificateAuth?: boolean;
  }
  interface FastifyRequest {
    /** Set by `requirePartner`. */
    partner?: PartnerPrincipal;
    /** Set by `requirePlayer`. */
    player?: PlayerSession;
    /** Set when a backoffice session cookie authenticated the request. */
    user?: BackofficeUser;
  }
  interface FastifyInstance {
    /** preHandler: a white label's bearer token from an allowed address. */
    requirePartner: preHandlerAsyncHookHandler;
    /** preHandler: a player session token (D26). */
    requirePlayer: preHandlerAsyncHookHandler;
    /** preHandler: the operator token (BOOKIE_ADMIN_TOKEN), or an operator user's session. */
    requireAdmin: preHandlerAsyncHookHandler;
    /**
     * preHandler of `/admin/white-labels/:id…` and the callback queue: the operator token or an operator user, or a
     * partner user of that white label (another white label's id is 404; a viewer changes nothing).
     */
    requireWhiteLabel: preHandlerAsyncHookHandler;
    /**
     * preHandler of operator routes that scope themselves to a partner user's white label (the callback queue): the
     * operator token, or any backoffice user (a viewer changes nothing).
     */
    requireUserOrAdmin: preHandlerAsyncHookHandler;
  }
}

/** The realm named in `WWW-Authenticate` challenges. */
export const REALM = 'bookie';

/**
 * The bearer token of a partner or player request (RFC 6750 §2.1). Without an `Authorization: Bearer` header:
 * 401 with `WWW-Authenticate: Bearer realm="bookie"` (no error code, §3.1); with a malformed one: 400
 * `invalid_request`.
 */
export function bearerToken(request: FastifyRequest, reply: FastifyReply): string {
  const h = request.headers.authorization;
  const scheme = h ? /^(\S+)(?:\s+|$)/.exec(h)?.[1] : undefined;
  if (!h || !scheme || scheme.toLowerCase() !== 'bearer') {
    reply.header('WWW-Authenticate', `Bearer realm="${REALM}"`);
    throw new DomainError('unauthorized', 'missing bearer token');
  }
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(h);
  if (!m?.[1]) {
    reply.header('WWW-Authenticate', `Bearer realm="${REALM}", error="invalid_request"`);
    throw new DomainError('validation_error', 'headers.authorization: malformed bearer token', {
      field: 'headers.authorization',
    });
  }
  return m[1];
}

/**
 * Adds the RFC 6750 §3 challenge to a refused request: `invalid_token` for a 401 that carries
 * `details.error`, nothing for other errors (a 403 from the allowlist carries none).
 */
export function challenge(reply: FastifyReply, err: unknown): void {
  if (err instanceof DomainError && err.code === 'unauthorized' && err.details?.error === 'invalid_token') {
    const description = err.message.replace(/["\\]/g, '');
    reply.header(
      'WWW-Authenticate',
      `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"`,
    );
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

/** Constant-time equality of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Decorates the app with `requireAdmin`, `requirePartner` and `requirePlayer`. Partner and player checks
 * delegate to `authenticator`; without one they refuse every request.
 */
export function installAuth(
  app: FastifyInstance,
  deps: Pick<PlatformServices, 'config'> & { users?: UserAuthenticator | undefined },
  authenticator: Authenticator | undefined,
): void {
  app.decorateRequest('partner', undefined);
  app.decorateRequest('player', undefined);
  app.decorateRequest('user', undefined);
  const users = deps.users;
  /** The session's user when the request has no Authorization header and carries a session cookie. */
  const sessionUser = async (
    request: FastifyRequest,
    asPartner = false,
  ): Promise<BackofficeUser | undefined> => {
    if (!users || request.headers.authorization !== undefined) return undefined;
    const user = await users.user(request);
    if (!user) return undefined;
    request.user = user;
    // a partner operation knows its white label before the audit reads the subject's state
    if (asPartner) request.partner = userAsPartner(request, user);
    if (!isSafeMethod(request.method)) {
      if (user.role === 'partner_viewer')
        throw new DomainError('forbidden', 'a partner viewer changes nothing');
      // authentication runs before validation (onRequest): the audit reads its subject by the path parameters, so
      // they meet the text rule here first
      const bad = findTextViolation(request.params, 'params');
      if (bad) throw validationError(bad.field, bad.reason);
      await users.beforeChange(request);
    }
    return user;
  };
  const operatorUser = async (request: FastifyRequest): Promise<boolean> => {
    const user = await sessionUser(request);
    if (!user) return false;
    if (user.role !== 'operator') throw new DomainError('forbidden', 'operator users only');
    return true;
  };
  app.decorate('requireWhiteLabel', async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await sessionUser(request);
    if (!user) return app.requireAdmin.call(app, request, reply);
    if (user.role === 'operator') return;
    const id = (request.params as { id?: string }).id;
    if (id !== undefined && id !== user.whiteLabelId) {
      throw new DomainError('not_found', `no white label ${id}`, { id });
    }
  });
  app.decorate('requireUserOrAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await sessionUser(request);
    if (!user) return app.requireAdmin.call(app, request, reply);
  });
  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    if (await operatorUser(request)) return;
    const token = bearer(request);
    const expected = deps.config.adminToken;
    if (!expected) throw new DomainError('forbidden', 'the admin API is disabled: set BOOKIE_ADMIN_TOKEN');
    if (!token || !safeEqual(token, expected)) {
      reply.header('WWW-Authenticate', token ? 'Bearer error="invalid_token"' : 'Bearer');
      throw new DomainError('unauthorized', token ? 'invalid admin token' : 'missing bearer token');
    }
  });
  const { partnerRateLimit: partnerMax, playerRateLimit: playerMax, rateLimitWindowMs } = deps.config.auth;
  const partnerLimit = rateLimit(
    app,
    partnerMax,
    rateLimitWindowMs,
    'credential',
    (req) => `partner:${req.partner?.credentialId ?? req.ip}`,
  );
  const playerLimit = rateLimit(app, playerMax, rateLimitWindowMs, 'player', (req) =>
    req.player?.playerId
      ? `player:${req.player.whiteLabelId}:${req.player.playerId}`
      : `session:${req.player?.sessionId ?? req.ip}`,
  );
  app.decorate('requirePartner', async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await sessionUser(request, true);
    if (user) {
      if (partnerLimit) await partnerLimit(request, reply);
      return;
    }
    if (!authenticator) throw new DomainError('unauthorized', 'partner authentication is not configured');
    request.partner = await authenticator.partner(request, reply);
    if (partnerLimit) await partnerLimit(request, reply);
  });
  app.decorate('requirePlayer', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!authenticator) throw new DomainError('unauthorized', 'player authentication is not configured');
    request.player = await authenticator.player(request, reply);
    if (playerLimit) await playerLimit(request, reply);
  });
  authenticateFirst(app);
}

/**
 * Authentication (and its rate limit) runs before the body is read and validated: a route that names
 * `requireAdmin`, `requirePartner`, `requirePlayer`, `requireUserOrAdmin` or `requireWhiteLabel` as its `preHandler`
 * gets it as its first `onRequest` hook
 * instead, so a caller without a valid token gets 401 (or 429) — never 400 with the route's schema details.
 */
function authenticateFirst(app: FastifyInstance): void {
  const guards = new Set<unknown>([
    app.requireAdmin,
    app.requirePartner,
    app.requirePlayer,
    app.requireUserOrAdmin,
    app.requireWhiteLabel,
  ]);
  app.addHook('onRoute', (route) => {
    const pre = route.preHandler;
    const list = pre === undefined ? [] : Array.isArray(pre) ? [...pre] : [pre];
    const moved = list.filter((h) => guards.has(h));
    if (moved.length === 0) return;
    const rest = list.filter((h) => !guards.has(h));
    route.preHandler = rest.length > 0 ? rest : undefined;
    const on = route.onRequest;
    const onList = on === undefined ? [] : Array.isArray(on) ? on : [on];
    route.onRequest = [...moved, ...onList] as typeof route.onRequest;
  });
}

/**
 * A backoffice user acting on partner operations: a partner user acts for its own white label; an operator user
 * names the white label in the `X-White-Label-Id` header.
 */
function userAsPartner(request: FastifyRequest, user: BackofficeUser): PartnerPrincipal {
  let whiteLabelId = user.whiteLabelId;
  if (user.role === 'operator') {
    const h = request.headers['x-white-label-id'];
    whiteLabelId = typeof h === 'string' && h !== '' ? h : null;
    if (!whiteLabelId) {
      throw new DomainError(
        'validation_error',
        'headers.x-white-label-id: an operator user names the white label',
        {
          field: 'headers.x-white-label-id',
        },
      );
    }
  }
  return {
    whiteLabelId: whiteLabelId as string,
    credentialId: `user:${user.id}`,
    clientId: `user:${user.email}`,
  };
}

/**
 * A rate limit of authenticated routes: `max` requests per `timeWindow` ms per key — partner routes per credential
 * (`PARTNER_RATE_LIMIT`), player routes per player (`PLAYER_RATE_LIMIT`) — counted by @fastify/rate-limit's store
 * once the caller is known; over the limit: 429 with Retry-After. Undefined when disabled (max 0) or when the
 * rate-limit plugin is not registered.
 */
function rateLimit(
  app: FastifyInstance,
  max: number,
  timeWindow: number,
  subject: string,
  keyGenerator: (request: FastifyRequest) => string,
): ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined {
  if (max <= 0 || !app.hasDecorator('createRateLimit')) return undefined;
  const check = app.createRateLimit({ max, timeWindow, keyGenerator });
  return async (request, reply) => {
    const r = await check(request);
    if (r.isAllowed) return;
    reply.header('x-ratelimit-limit', r.max);
    reply.header('x-ratelimit-remaining', r.remaining);
    reply.header('x-ratelimit-reset', r.ttlInSeconds);
    if (r.isExceeded) {
      reply.header('retry-after', r.ttlInSeconds);
      throw new DomainError('rate_limited', `rate limit of ${r.max} requests exceeded for this ${subject}`, {
        retry_after: r.ttlInSeconds,
      });
    }
  };
}
