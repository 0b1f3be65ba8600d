import {
  BetBoostPage,
  BetBoostView,
  BonusListQuery,
  BulkCreateFreebetsBody,
  BulkCreateFreebetsResponse,
  CancelBonusBody,
  CreateBetBoostBody,
  CreateFreebetBody,
  CreateInsuranceBody,
  FreebetPage,
  FreebetView,
  InsurancePage,
  InsuranceView,
  UpdateFreebetBody,
  UpdateInsuranceBody,
} from '@bookie/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/wiring.js';
import { partnerOf } from '../auth/session.routes.js';
import { cancelFreebet } from './cancel-freebet.js';
import { createBetBoost } from './create-bet-boost.js';
import { createFreebet } from './create-freebet.js';
import { createFreebetsBulk } from './create-freebets-bulk.js';
import { createInsurance } from './create-insurance.js';
import type { BonusesDeps } from './deps.js';
import { getBetBoost, listBetBoosts } from './get-bet-boost.js';
import { getFreebet, listFreebets } from './get-freebet.js';
import { getInsurance, listInsurances } from './get-insurance.js';
import { updateFreebetRecord } from './update-freebet.js';
import { updateInsuranceRecord } from './update-insurance.js';

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** The bonus use cases' dependencies out of the app's. */
export function bonusesDeps(app: AppDeps): BonusesDeps {
  return { database: app.database, clock: app.clock, whiteLabels: app.placement.whiteLabels };
}

/**
 * Partner REST of the bonus mechanics (spec 01 "Platform REST operations"; issue 9), behind the partner bearer token
 * and scoped to its white label (another white label's ids answer 404): freebets, bet insurances and bet boosts.
 */
export async function bonusesRoutes(app: FastifyInstance, appDeps: AppDeps): Promise<void> {
  const deps = bonusesDeps(appDeps);
  const security = [{ bearer: [] }];
  const freebets = { tags: ['freebets'], security };
  const insurance = { tags: ['insurance'], security };
  const boosts = { tags: ['bet boosts'], security };
  const wl = (req: Parameters<typeof partnerOf>[0]) => partnerOf(req).whiteLabelId;

  app.post<{ Body: CreateFreebetBody }>(
    '/freebet/create',
    {
      preHandler: app.requirePartner,
      schema: {
        ...freebets,
        summary: 'Create a freebet for a player (201; 200 for a repeat of the same idempotence_id)',
        body: CreateFreebetBody,
        response: { 200: FreebetView, 201: FreebetView },
      },
    },
    async (req, reply) => {
      const r = await createFreebet(deps, { whiteLabelId: wl(req), body: req.body });
      return reply.status(r.status).send(r.record);
    },
  );
  app.post<{ Body: BulkCreateFreebetsBody }>(
    '/freebet/create/bulk',
    {
      preHandler: app.requirePartner,
      // an item that does not fit the schema is answered on its own (400 in its place), not the whole request
      attachValidation: true,
      schema: {
        ...freebets,
        summary: 'Create freebets in bulk; each item is answered on its own, in order',
        body: BulkCreateFreebetsBody,
        response: { 200: BulkCreateFreebetsResponse },
      },
    },
    async (req) => createFreebetsBulk(deps, { whiteLabelId: wl(req), body: req.body }),
  );
  app.post<{ Body: UpdateFreebetBody }>(
    '/freebet/update',
    {
      preHandler: app.requirePartner,
      schema: {
        ...freebets,
        summary: 'Update an available freebet (amount, expires_at, conditions, foreign_params)',
        body: UpdateFreebetBody,
        response: { 200: FreebetView },
      },
    },
    async (req) => updateFreebetRecord(deps, { whiteLabelId: wl(req), body: req.body }),
  );
  app.post<{ Body: CancelBonusBody }>(
    '/freebet/cancel',
    {
      preHandler: app.requirePartner,
      schema: {
        ...freebets,
        summary: 'Cancel an available freebet',
        body: CancelBonusBody,
        response: { 200: FreebetView },
      },
    },
    async (req) => cancelFreebet(deps, { whiteLabelId: wl(req), id: req.body.id }),
  );
  app.get<{ Params: { id: string } }>(
    '/freebet/:id',
    {
      preHandler: app.requirePartner,
      schema: { ...freebets, summary: 'One freebet', params: IdParams, response: { 200: FreebetView } },
    },
    async (req) => getFreebet(deps, { whiteLabelId: wl(req), id: req.params.id }),
  );
  app.get<{ Querystring: BonusListQuery }>(
    '/freebets',
    {
      preHandler: app.requirePartner,
      schema: {
        ...freebets,
        summary: 'Freebets, newest first, by player and status',
        querystring: BonusListQuery,
        response: { 200: FreebetPage },
      },
    },
    async (req) => listFreebets(deps, { whiteLabelId: wl(req), query: req.query }),
  );

  app.post<{ Body: CreateInsuranceBody }>(
    '/insurance/create',
    {
      preHandler: app.requirePartner,
      schema: {
        ...insurance,
        summary: 'Create a bet insurance for a player (201; 200 for a repeat of the same idempotence_id)',
        body: CreateInsuranceBody,
        response: { 200: InsuranceView, 201: InsuranceView },
      },
    },
    async (req, reply) => {
      const r = await createInsurance(deps, { whiteLabelId: wl(req), body: req.body });
      return reply.status(r.status).send(r.record);
    },
  );
  app.post<{ Body: UpdateInsuranceBody }>(
    '/insurance/update',
    {
      preHandler: app.requirePartner,
      schema: {
        ...insurance,
        summary: 'Update an available bet insurance',
        body: UpdateInsuranceBody,
        response: { 200: InsuranceView },
      },
    },
    async (req) => updateInsuranceRecord(deps, { whiteLabelId: wl(req), body: req.body }),
  );
  app.get<{ Params: { id: string } }>(
    '/insurance/:id',
    {
      preHandler: app.requirePartner,
      schema: {
        ...insurance,
        summary: 'One bet insurance',
        params: IdParams,
        response: { 200: InsuranceView },
      },
    },
    async (req) => getInsurance(deps, { whiteLabelId: wl(req), id: req.params.id }),
  );
  app.get<{ Querystring: BonusListQuery }>(
    '/insurances',
    {
      preHandler: app.requirePartner,
      schema: {
        ...insurance,
        summary: 'Bet insurances, newest first, by player and status',
        querystring: BonusListQuery,
        response: { 200: InsurancePage },
      },
    },
    async (req) => listInsurances(deps, { whiteLabelId: wl(req), query: req.query }),
  );

  app.post<{ Body: CreateBetBoostBody }>(
    '/bet-boosts',
    {
      preHandler: app.requirePartner,
      schema: {
        ...boosts,
        summary: 'Create a bet boost (201; 200 for a repeat of the same idempotence_id)',
        body: CreateBetBoostBody,
        response: { 200: BetBoostView, 201: BetBoostView },
      },
    },
    async (req, reply) => {
      const r = await createBetBoost(deps, { whiteLabelId: wl(req), body: req.body });
      return reply.status(r.status).send(r.record);
    },
  );
  app.get<{ Querystring: BonusListQuery }>(
    '/bet-boosts',
    {
      preHandler: app.requirePartner,
      schema: {
        ...boosts,
        summary: 'Bet boosts, newest first, optionally of one player',
        querystring: BonusListQuery,
        response: { 200: BetBoostPage },
      },
    },
    async (req) => listBetBoosts(deps, { whiteLabelId: wl(req), query: req.query }),
  );
  app.get<{ Params: { id: string } }>(
    '/bet-boosts/:id',
    {
      preHandler: app.requirePartner,
      schema: { ...boosts, summary: 'One bet boost', params: IdParams, response: { 200: BetBoostView } },
    },
    async (req) => getBetBoost(deps, { whiteLabelId: wl(req), id: req.params.id }),
  );
}
