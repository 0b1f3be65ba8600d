import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppDeps } from '../app/wiring.js';

/** Who is calling a partner route: a white label, through one of its OAuth credentials. */
export interface PartnerPrincipal {
  whiteLabelId: string;
  credentialId: string;
  clientId: string;
}

/** Who is calling a frame (player) route: a session token of DECISIONS D26. */
export interface PlayerSession {
  token: string;
  whiteLabelId: string;
  /** Empty for a read-only viewer (D26). */
  playerId: string;
  currency: string;
  locale: string;
  /** Passed back to the partner as the Foreign-Params header of callbacks (D7). */
  params: Record<string, unknown>;
  context: Record<string, unknown>;
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
  interface FastifyRequest {
    /** Set by `requirePartner`. */
    partner?: PartnerPrincipal;
    /** Set by `requirePlayer`. */
    player?: PlayerSession;
  }
  interface FastifyInstance {
    /** preHandler: a white label's bearer token from an allowed address. */
    requirePartner: preHandlerAsyncHookHandler;
    /** preHandler: a player session token (D26). */
    requirePlayer: preHandlerAsyncHookHandler;
    /** preHandler: the operator token (BOOKIE_ADMIN_TOKEN). */
    requireAdmin: preHandlerAsyncHookHandler;
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
  deps: AppDeps,
  authenticator: Authenticator | undefined,
): void {
  app.decorateRequest('partner', undefined);
  app.decorateRequest('player', undefined);
  app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(request);
    const expected = deps.config.adminToken;
    if (!expected) throw new DomainError('forbidden', 'the admin API is disabled: set BOOKIE_ADMIN_TOKEN');
    if (!token || !safeEqual(token, expected)) {
      reply.header('WWW-Authenticate', token ? 'Bearer error="invalid_token"' : 'Bearer');
      throw new DomainError('unauthorized', token ? 'invalid admin token' : 'missing bearer token');
    }
  });
  app.decorate('requirePartner', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!authenticator) throw new DomainError('unauthorized', 'partner authentication is not configured');
    request.partner = await authenticator.partner(request, reply);
  });
  app.decorate('requirePlayer', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!authenticator) throw new DomainError('unauthorized', 'player authentication is not configured');
    request.player = await authenticator.player(request, reply);
  });
}
