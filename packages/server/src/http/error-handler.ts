import { DomainError, type ErrorCode } from '@bookie/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REALM } from './auth.js';
import { type OAuthErrorCode, oauthErrorCodeOf } from './oauth-errors.js';

/** The one map from domain error codes to HTTP statuses (ARCHITECTURE "Inside the server"). */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  version_expired: 409,
  restricted: 422,
  not_resulted: 409,
  unavailable: 503,
  internal_error: 500,
};

/** The error body of every Bookie HTTP API. */
export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/** Builds the error body for a domain error. */
export function errorBody(err: DomainError): ErrorBody {
  return { error: { code: err.code, message: err.message, details: err.details ?? {} } };
}

/** Turns a Fastify schema-validation error into a validation_error naming the field. */
function fromValidation(err: FastifyError): DomainError {
  const first = err.validation?.[0];
  const context = err.validationContext ?? 'body';
  let field = context as string;
  if (first) {
    const path = first.instancePath
      .split('/')
      .filter(Boolean)
      .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
      .join('');
    field = `${context}${path}`;
    const params = first.params as Record<string, unknown>;
    if (typeof params.missingProperty === 'string') field += `.${params.missingProperty}`;
    if (typeof params.additionalProperty === 'string') field += `.${params.additionalProperty}`;
    // a record key breaking its `propertyNames` rule: the record is named, then the key (cut short)
    const key = (first as { propertyName?: unknown }).propertyName ?? params.propertyName;
    const keyText =
      typeof key === 'string' ? `key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)} ` : '';
    const message =
      typeof params.additionalProperty === 'string'
        ? 'is not an allowed field'
        : `${keyText}${first.message ?? 'is invalid'}`;
    return new DomainError('validation_error', `${field}: ${message}`, { field });
  }
  return new DomainError('validation_error', err.message, { field });
}

/**
 * The answer of an error on an OAuth route (RFC 6749 §5.2): `{error, error_description}`, never cached. An OAuth error
 * keeps its code; else a bad request is `invalid_request` (with its 4xx status when 413, else 400), failed client
 * authentication `invalid_client` (401 with a Basic challenge), anything else `server_error` (500, logged).
 */
function sendOAuthError(raw: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) {
  let error: OAuthErrorCode;
  let status: number;
  let message = raw.message;
  const oauth = oauthErrorCodeOf(raw);
  if (oauth && raw instanceof DomainError) {
    error = oauth;
    status = HTTP_STATUS[raw.code];
    const retryAfter = raw.details?.retry_after_s;
    if (typeof retryAfter === 'number') reply.header('Retry-After', retryAfter);
  } else if (raw instanceof DomainError && raw.code === 'validation_error') {
    [error, status] = ['invalid_request', 400];
  } else if (raw instanceof DomainError && raw.code === 'unauthorized') {
    [error, status] = ['invalid_client', 401];
  } else if (
    !(raw instanceof DomainError) &&
    typeof raw.statusCode === 'number' &&
    raw.statusCode >= 400 &&
    raw.statusCode < 500
  ) {
    [error, status] = ['invalid_request', raw.statusCode === 413 ? 413 : 400];
  } else {
    request.log.error({ err: raw }, 'OAuth route failed');
    [error, status, message] = ['server_error', 500, 'internal error'];
  }
  if (error === 'invalid_client') reply.header('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
  return reply
    .status(status)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .send({ error, error_description: message });
}

/** Installs the error and not-found handlers: every error leaves as `{"error":{"code","message","details"}}`. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config?.oauthErrors) return sendOAuthError(raw, request, reply);
    let err: DomainError;
    if (raw instanceof DomainError) err = raw;
    else if ((raw as FastifyError).validation) err = fromValidation(raw as FastifyError);
    else if (typeof raw.statusCode === 'number' && raw.statusCode >= 400 && raw.statusCode < 500) {
      const code: ErrorCode =
        raw.statusCode === 404
          ? 'not_found'
          : raw.statusCode === 429
            ? 'rate_limited'
            : raw.statusCode === 401
              ? 'unauthorized'
              : raw.statusCode === 403
                ? 'forbidden'
                : 'validation_error';
      const body = errorBody(new DomainError(code, raw.message));
      return reply.status(raw.statusCode).send(body);
    } else {
      request.log.error({ err: raw }, 'unhandled error');
      err = new DomainError('internal_error', 'internal error');
    }
    if (err.code === 'internal_error') {
      // never leak internals: the log has the error, the client gets a generic body
      request.log.error({ err: raw }, 'internal error');
      err = new DomainError('internal_error', 'internal error');
    }
    return reply.status(HTTP_STATUS[err.code]).send(errorBody(err));
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(
        errorBody(new DomainError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
      );
  });
}
