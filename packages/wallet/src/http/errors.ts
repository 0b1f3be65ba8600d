import { DomainError } from '@bookie/core';
import type { FastifyError, FastifyInstance } from 'fastify';

const STATUS: Record<string, number> = { validation_error: 400, unauthorized: 401, not_found: 404 };

/** Error answers of the wallet's own API: `{"error":{"code","message","details"}}` like Bookie's (ADR 0001). */
export function installWalletErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | DomainError, request, reply) => {
    if (raw instanceof DomainError && STATUS[raw.code]) {
      return reply
        .status(STATUS[raw.code]!)
        .send({ error: { code: raw.code, message: raw.message, details: raw.details ?? {} } });
    }
    const status = (raw as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.status(status).send({ error: { code: 'bad_request', message: raw.message, details: {} } });
    }
    request.log.error({ err: raw }, 'internal error');
    return reply
      .status(500)
      .send({ error: { code: 'internal_error', message: 'internal error', details: {} } });
  });
  app.setNotFoundHandler((_req, reply) =>
    reply.status(404).send({ error: { code: 'not_found', message: 'no such route', details: {} } }),
  );
}
