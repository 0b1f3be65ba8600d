import { DomainError } from '@bookie/core';
import type { FastifyRequest } from 'fastify';
import type { PartnerPrincipal, PlayerSession } from './auth.js';

/**
 * The partner of a request behind `app.requirePartner`.
 *
 * @throws DomainError `unauthorized` when the route was reached without partner authentication.
 */
export function partnerOf(request: FastifyRequest): PartnerPrincipal {
  if (!request.partner) throw new DomainError('unauthorized', 'partner authentication required');
  return request.partner;
}

/**
 * The player session of a request behind `app.requirePlayer` (a session token, DECISIONS D26).
 *
 * @throws DomainError `unauthorized` when the route was reached without a player session.
 */
export function playerOf(request: FastifyRequest): PlayerSession {
  if (!request.player) throw new DomainError('unauthorized', 'player authentication required');
  return request.player;
}
