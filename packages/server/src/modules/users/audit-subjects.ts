import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../app/clock.js';
import type { Database } from '../../db/database.js';
import { getPartnerBet } from '../bets/list-white-label-bets.js';
import { showCallbackDelivery } from '../callbacks/list-deliveries.js';
import { showWhiteLabel } from '../tenants/get-white-label.js';
import type { AuditSubject } from './session-authenticator.js';

/**
 * What a backoffice user's change is about, from its route: a white label (its settings, credentials, signing),
 * a bet (cancel, void), a callback delivery (retry). Other changes are recorded with their route and body only.
 */
export function auditSubjectOf(deps: {
  database: Database;
  clock: Clock;
}): (request: FastifyRequest) => AuditSubject | undefined {
  return (request) => {
    const url = request.routeOptions.url ?? '';
    const params = (request.params ?? {}) as Record<string, string>;
    if (url.startsWith('/admin/white-labels/:id') && params.id) {
      const id = params.id;
      return { subject: `white_label:${id}`, read: () => showWhiteLabel(deps, id) };
    }
    if (url.startsWith('/bets/:bet_id') && params.bet_id && request.partner) {
      const id = params.bet_id;
      const wl = request.partner.whiteLabelId;
      return { subject: `bet:${id}`, read: () => getPartnerBet(deps.database.db, wl, id) };
    }
    if (url.startsWith('/admin/callbacks/:id') && params.id) {
      const id = params.id;
      return { subject: `callback:${id}`, read: () => showCallbackDelivery(deps.database.db, id) };
    }
    return undefined;
  };
}
