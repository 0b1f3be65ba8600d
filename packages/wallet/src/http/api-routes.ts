import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { WalletDB } from '../db/schema.js';
import { checkAccountKey, deposit } from '../ledger/deposit.js';
import { checkLedger } from '../ledger/invariant.js';
import { playerBalances, playerLedger } from '../ledger/ledger.repo.js';
import { formatMicros } from '../money.js';
import { type Faults, parseFaults } from './faults.js';

/** Dependencies of the wallet's own API. */
export interface ApiDeps {
  db: Kysely<WalletDB>;
  faults: Faults;
  /** When set, deposits and `/admin/*` need `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
}

type PlayerParams = { Params: { id: string } };

/** Reads a player's balances as the API answers them (decimal strings with 6 decimals). */
export async function balanceView(db: Kysely<WalletDB>, playerId: string) {
  const rows = await playerBalances(db, playerId);
  return {
    player_id: playerId,
    balances: rows.map((r) => ({
      currency: r.currency,
      available: formatMicros(r.available),
      held: formatMicros(r.held),
    })),
  };
}

/**
 * The wallet's own API:
 * - `GET /players/{id}/balance` → `{player_id, balances: [{currency, available, held}]}`;
 * - `GET /players/{id}/ledger` → `{player_id, entries: [...]}` (oldest first);
 * - `POST /players/{id}/deposits` `{currency, amount, reference?}` → 201 (200 when `reference` was seen) with the
 *   balance;
 * - `GET /admin/ledger/check[?player=id]` → the ledger invariant of every account (or one player's);
 * - `GET /admin/faults`, `PUT /admin/faults` (partial settings) → the fault settings;
 * - `GET /healthz`.
 */
export async function apiRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const requireAdmin = async (request: FastifyRequest) => {
    if (deps.adminToken && request.headers.authorization !== `Bearer ${deps.adminToken}`) {
      throw new DomainError('unauthorized', 'admin token required');
    }
  };

  app.get('/healthz', async () => ({ ok: true }));

  app.get<PlayerParams>('/players/:id/balance', async (request) => balanceView(deps.db, request.params.id));

  app.get<PlayerParams>('/players/:id/ledger', async (request) => {
    const rows = await playerLedger(deps.db, request.params.id);
    return {
      player_id: request.params.id,
      entries: rows.map((r) => ({
        id: r.id.toString(),
        currency: r.currency,
        kind: r.kind,
        reason: r.reason,
        amount: formatMicros(r.amount),
        bet_id: r.bet_id,
        ref: r.ref,
        request_id: r.request_id,
        available_after: formatMicros(r.available_after),
        held_after: formatMicros(r.held_after),
        at: new Date(r.at).toISOString(),
      })),
    };
  });

  app.post<PlayerParams & { Body: { currency?: unknown; amount?: unknown; reference?: unknown } }>(
    '/players/:id/deposits',
    { preHandler: requireAdmin },
    async (request, reply) => {
      const body = request.body ?? {};
      checkAccountKey(request.params.id, body.currency);
      if (body.reference !== undefined && typeof body.reference !== 'string') {
        throw new DomainError('validation_error', 'reference: must be a string', { field: 'reference' });
      }
      const result = await deposit(deps.db, {
        playerId: request.params.id,
        currency: body.currency as string,
        amount: body.amount as string,
        ...(body.reference === undefined ? {} : { reference: body.reference as string }),
      });
      return reply.code(result.applied ? 201 : 200).send(result);
    },
  );

  app.get<{ Querystring: { player?: string } }>(
    '/admin/ledger/check',
    { preHandler: requireAdmin },
    async (request) => checkLedger(deps.db, request.query.player),
  );
  app.get('/admin/faults', { preHandler: requireAdmin }, async () => deps.faults.config);
  app.put('/admin/faults', { preHandler: requireAdmin }, async (request) =>
    deps.faults.update(parseFaults(request.body)),
  );
}
