/**
 * OAuth errors (RFC 6749 §5.2, RFC 7591 §3.2.2) as the one error type: a {@link DomainError} whose
 * `details.oauth_error` is the RFC's error code. The error handler (error-handler.ts) answers them, and every other
 * error of a route marked {@link OAUTH_ROUTE}, with the RFC's body `{error, error_description}` (what OAuth clients
 * parse) instead of Bookie's error body.
 *
 * @packageDocumentation
 */
import { DomainError, type ErrorCode } from '@bookie/core';
import type { FastifyInstance } from 'fastify';

/** The OAuth error codes Bookie answers (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_client_metadata'
  | 'invalid_target'
  | 'temporarily_unavailable'
  | 'server_error';

/** The domain code, and so the HTTP status, of each OAuth error code. */
const DOMAIN_CODE: Record<OAuthErrorCode, ErrorCode> = {
  invalid_request: 'validation_error',
  invalid_client: 'unauthorized',
  invalid_grant: 'validation_error',
  unsupported_grant_type: 'validation_error',
  invalid_scope: 'validation_error',
  invalid_client_metadata: 'validation_error',
  invalid_target: 'validation_error',
  temporarily_unavailable: 'rate_limited',
  server_error: 'internal_error',
};

/**
 * An OAuth error: `details.oauth_error` is `error`; `retryAfterS` becomes a `Retry-After` header (a rate limit).
 * The status follows the domain code: 400 for the request errors, 401 for `invalid_client` (with a
 * `WWW-Authenticate: Basic` challenge), 429 for `temporarily_unavailable`, 500 for `server_error`.
 */
export function oauthError(error: OAuthErrorCode, message: string, retryAfterS?: number): DomainError {
  return new DomainError(DOMAIN_CODE[error], message, {
    oauth_error: error,
    ...(retryAfterS === undefined ? {} : { retry_after_s: retryAfterS }),
  });
}

/** The OAuth error code of `e`, when it is an OAuth error made by {@link oauthError}. */
export function oauthErrorCodeOf(e: unknown): OAuthErrorCode | undefined {
  if (!(e instanceof DomainError)) return undefined;
  const code = e.details?.oauth_error;
  return typeof code === 'string' && code in DOMAIN_CODE ? (code as OAuthErrorCode) : undefined;
}

/** True when `e` is an OAuth error made by {@link oauthError}. */
export function isOAuthError(e: unknown): e is DomainError {
  return oauthErrorCodeOf(e) !== undefined;
}

/**
 * Marks every route `scope` registers from now on as an OAuth route: its errors are answered with the RFC 6749 §5.2
 * body (see error-handler.ts).
 */
export function markOAuthRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), oauthErrors: true };
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors of this route are answered as OAuth errors (`{error, error_description}`, RFC 6749 §5.2). */
    oauthErrors?: boolean;
  }
}
