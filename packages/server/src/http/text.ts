import { findTextViolation } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Checks a request's decoded inputs against the text rule of `@bookie/contracts` (no NUL, no lone surrogate):
 * path parameters, query, then body.
 *
 * @throws DomainError validation_error naming the field, e.g. `body.market_ids[0]: contains a NUL character`.
 */
export function checkRequestText(request: FastifyRequest): void {
  for (const [root, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const v = findTextViolation(value, root);
    if (v) throw validationError(v.field, v.reason);
  }
}

/**
 * The one place the text rule is applied to every route: a root `preValidation` hook, so it runs after
 * authentication (`onRequest`, see `installAuth`) and before each route's schema validation.
 */
export function installTextRule(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      checkRequestText(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
