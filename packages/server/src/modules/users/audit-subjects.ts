import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import type { Executor } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { findBetBoost } from '../bonuses/index.js';
import { showCallbackDelivery } from '../callbacks/index.js';
import { getPartnerBet } from '../mts/index.js';
import { readPlayerRisk } from '../risk/index.js';
import { showWhiteLabel } from '../tenants/index.js';
import type { AuditSubject } from './session-authenticator.js';

/**
 * What a backoffice user's change is about, from its route: a white label (its settings, credentials, signing),
 * a bet (cancel, void), a callback delivery (retry), a player's risk group. Other changes are recorded with their route and body only.
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
      return {
        subject: `white_label:${id}`,
        read: (db) => showWhiteLabel({ ...deps, database: { ...deps.database, db } }, id),
      };
    }
    if (url.startsWith('/bets/:bet_id') && params.bet_id && request.partner) {
      const id = params.bet_id;
      const wl = request.partner.whiteLabelId;
      return { subject: `bet:${id}`, read: (db) => getPartnerBet(db, wl, id) };
    }
    if (url.startsWith('/admin/callbacks/:id') && params.id) {
      const id = params.id;
      return { subject: `callback:${id}`, read: (db) => showCallbackDelivery(db, id) };
    }
    if (url === '/bet-boosts/:id/cancel' && params.id && request.partner) {
      const id = params.id;
      const wl = request.partner.whiteLabelId;
      return { subject: `bet_boost:${id}`, read: (db) => findBetBoost(db, wl, id) };
    }
    if (url === '/players/:player_id/risk' && params.player_id && request.partner) {
      const id = params.player_id;
      const wl = request.partner.whiteLabelId;
      return { subject: `player:${wl}:${id}`, read: (db) => playerGroup(db, wl, id) };
    }
    if (
      url === '/admin/risk/players/:white_label_id/:player_id' &&
      params.white_label_id &&
      params.player_id
    ) {
      const { white_label_id: wl, player_id: id } = params;
      return { subject: `player:${wl}:${id}`, read: (db) => playerGroup(db, wl, id) };
    }
    return undefined;
  };
}

async function playerGroup(db: Executor, whiteLabelId: string, playerId: string) {
  const row = await readPlayerRisk(db, whiteLabelId, playerId);
  return { group: row?.group_name ?? 'default', group_source: row?.group_source ?? 'default' };
}
