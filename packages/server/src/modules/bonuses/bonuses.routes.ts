import {
  BetBoostPage,
  BetBoostView,
  BonusIdParams,
  BonusListQuery,
  BulkCreateFreebetsBody,
  BulkCreateFreebetsResponse,
  CancelBonusBody,
  CreateBetBoostBody,
  CreateFreebetBody,
  CreateInsuranceBody,
  FreebetPage,
  FreebetView,
  InsuranceOpenItemList,
  InsuranceOpenItemQuery,
  InsurancePage,
  InsuranceView,
  UpdateFreebetBody,
  UpdateInsuranceBody,
} from '@bookie/contracts';
import type { FastifyInstance } from 'fastify';
import { ADMIN_SECURITY, actorOf } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import { cancelBetBoost } from './cancel-bet-boost.js';
import { cancelFreebet } from './cancel-freebet.js';
import { cancelInsurance } from './cancel-insurance.js';
import { createBetBoost } from './create-bet-boost.js';
import { createFreebet } from './create-freebet.js';
import { createFreebetsBulk } from './create-freebets-bulk.js';
import { createInsurance } from './create-insurance.js';
import type { BonusesDeps } from './deps.js';
import { getBetBoost, listBetBoosts } from './get-bet-boost.js';
import { getFreebet, listFreebets } from './get-freebet.js';
import { getInsurance, listInsurances } from './get-insurance.js';
import { insuranceOpenItems } from './list-insurance-open-items.js';
import { updateFreebetRecord } from './update-freebet.js';
import { updateInsuranceRecord } from './update-insurance.js';

/**
 * Partner REST of the bonus mechanics (spec 01 "Platform REST operations"), behind the partner bearer token
 * and scoped to its white label (another white label's ids answer 404): freebets, bet insurances and bet boosts.
 */
export async function bonusesRoutes(app: FastifyInstance, deps: BonusesDeps): Promise<void> {
  const security = [{ bearer: [] }];
  const freebets = { tags: ['freebets'], security };
  const insurance = { tags: ['insurance'], security };
  const boosts = { tags: ['bet boosts'], security };
  const wl = (req: Parameters<typeof partnerOf>[0]) => partnerOf(req).whiteLabelId;

  app.get<{ Querystring: InsuranceOpenItemQuery }>(
    '/admin/insurance-open-items',
    {
      preHandler: app.requireUserOrAdmin,
      schema: {
        tags: ['operator'],
        operationId: 'listInsuranceOpenItems',
        summary: 'Insurance refunds to settle by hand',
        description:
          'Insurance refunds the operator must settle with the partner by hand, newest first: a refund that stays with the player because the partner could not take it back (`refund_kept_not_earned`: it opted out of or does not implement `/bet/insurances/cancel`) while the corrected result no longer earns it, and an earned refund the partner never credited (`refund_not_paid`: it does not implement `/bet/insurances/accepted`). A partner user sees its own white label only.',
        security: ADMIN_SECURITY,
        querystring: InsuranceOpenItemQuery,
        response: { 200: InsuranceOpenItemList },
      },
    },
    async (req) => {
      const own = req.user && req.user.role !== 'operator' ? (req.user.whiteLabelId ?? undefined) : undefined;
      const items = await insuranceOpenItems(deps.database.db, {
        whiteLabelId: own ?? req.query.white_label_id,
        limit: req.query.limit ?? 100,
      });
      return { items };
    },
  );

  app.post<{ Body: CreateFreebetBody }>(
    '/freebet/create',
    {
      preHandler: app.requirePartner,
      schema: {
        ...freebets,
        operationId: 'createFreebet',
        description:
          'Gives a player a freebet of `amount` in `currency_code`, usable on bets matching `conditions` until `expires_at`. 201 for a new freebet; 200 with the same freebet for a repeat of the same `idempotence_id`.',
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
        operationId: 'createFreebetsBulk',
        description:
          'Creates many freebets in one call; each item is answered on its own with its status (201, 200 for a repeat, or 4xx with an error), in the order sent.',
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
        operationId: 'updateFreebet',
        description:
          'Changes an available freebet (amount, expiry, conditions, foreign params); a reserved or used one cannot change.',
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
        operationId: 'cancelFreebet',
        description: 'Cancels an available freebet; it can no longer be used.',
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
      schema: {
        ...freebets,
        operationId: 'getFreebet',
        description: 'One freebet of the calling white label with its status.',
        summary: 'One freebet',
        params: BonusIdParams,
        response: { 200: FreebetView },
      },
    },
    async (req) => getFreebet(deps, { whiteLabelId: wl(req), id: req.params.id }),
  );
  app.get<{ Querystring: BonusListQuery }>(
    '/freebets',
    {
      preHandler: app.requirePartner,
      schema: {
        ...freebets,
        operationId: 'listFreebets',
        description:
          'Freebets of the calling white label, newest first, by player and status; page with `cursor`.',
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
        operationId: 'createInsurance',
        description:
          'Gives a player a bet insurance: when an insured bet settles lost with at most `max_odds_count_lose` lost legs, the refund (`amount`, or `percent` of the stake up to `max_amount`) is paid through `/bet/insurances/accepted`. 201 new; 200 for a repeat of the same `idempotence_id`.',
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
        operationId: 'updateInsurance',
        description: 'Changes an available bet insurance.',
        summary: 'Update an available bet insurance',
        body: UpdateInsuranceBody,
        response: { 200: InsuranceView },
      },
    },
    async (req) => updateInsuranceRecord(deps, { whiteLabelId: wl(req), body: req.body }),
  );
  app.post<{ Body: CancelBonusBody }>(
    '/insurance/cancel',
    {
      preHandler: app.requirePartner,
      schema: {
        ...insurance,
        operationId: 'cancelInsurance',
        description:
          'Cancels a bet insurance not yet applied to a bet; no bet takes it any more. Audited. One applied to a bet, paid or declined is 409; cancelling a cancelled one answers it again. No callback is sent.',
        summary: 'Cancel an available bet insurance',
        body: CancelBonusBody,
        response: { 200: InsuranceView },
      },
    },
    async (req) => cancelInsurance(deps, { whiteLabelId: wl(req), id: req.body.id, actor: actorOf(req) }),
  );
  app.get<{ Params: { id: string } }>(
    '/insurance/:id',
    {
      preHandler: app.requirePartner,
      schema: {
        ...insurance,
        operationId: 'getInsurance',
        description: 'One bet insurance of the calling white label with its status.',
        summary: 'One bet insurance',
        params: BonusIdParams,
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
        operationId: 'listInsurances',
        description:
          'Bet insurances of the calling white label, newest first, by player and status; page with `cursor`.',
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
        operationId: 'createBetBoost',
        description:
          'Creates a bet boost: bets that use it get their odds multiplied by `multiplier`, for `quantity` bets, for one player or all. 201 new; 200 for a repeat of the same `idempotence_id`.',
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
        operationId: 'listBetBoosts',
        description:
          'Bet boosts of the calling white label, newest first, optionally of one player; page with `cursor`.',
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
      schema: {
        ...boosts,
        operationId: 'getBetBoost',
        description: 'One bet boost with its remaining quantity.',
        summary: 'One bet boost',
        params: BonusIdParams,
        response: { 200: BetBoostView },
      },
    },
    async (req) => getBetBoost(deps, { whiteLabelId: wl(req), id: req.params.id }),
  );
  app.post<{ Params: { id: string } }>(
    '/bet-boosts/:id/cancel',
    {
      preHandler: app.requirePartner,
      schema: {
        ...boosts,
        operationId: 'cancelBetBoost',
        description:
          'Cancels a bet boost: no bet takes it from now on; bets that already took it keep their boosted odds. Audited. Cancelling a cancelled boost answers it again.',
        summary: 'Cancel a bet boost',
        params: BonusIdParams,
        response: { 200: BetBoostView },
      },
    },
    async (req) => cancelBetBoost(deps, { whiteLabelId: wl(req), id: req.params.id, actor: actorOf(req) }),
  );
}
