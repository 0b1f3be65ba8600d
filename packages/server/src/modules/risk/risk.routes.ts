import {
  AdminPlayerRiskParams,
  BetDelayBody,
  ExposureList,
  ExposureQuery,
  ExposureRecompute,
  errorAnswers,
  PlayerRiskParams,
  PlayerRiskView,
  PutPlayerRiskBody,
  RiskGroupBody,
  RiskLimitBody,
  RiskSettings,
  ShadingList,
  ShadingQuery,
} from '@bookie/contracts';
import { formatFeedOddValue, parseDecimal } from '@bookie/core';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { ADMIN_SECURITY, actorOf, operatorOf, PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import type { RiskDeps } from './deps.js';
import { listExposure } from './exposure.repo.js';
import { exposureView } from './exposure-view.js';
import { getPlayerRisk, putPlayerRisk } from './player-risk.js';
import { recomputeExposure } from './recompute-exposure.js';
import { setGroup } from './risk-group.js';
import { riskSettings, setDelay, setLimit } from './risk-settings.js';
import { listShadingHistory } from './shading.repo.js';

const errors = (...codes: number[]) => errorAnswers(...codes);

/** What the risk routes need: the risk engine's deps. */
export interface RiskRoutesDeps {
  database: Database;
  risk: RiskDeps;
}

/**
 * The risk engine's HTTP API: players' risk (D40); the operator's exposure
 * per sport event and market (D37), limits, groups and delays (D34, D38), and the exposure recompute. The cash-out
 * margins under `/admin/risk/cash-out-margins` are the cash-out module's routes.
 */
export async function riskRoutes(app: FastifyInstance, deps: RiskRoutesDeps): Promise<void> {
  const partner = { tags: ['risk'], security: PARTNER_SECURITY };
  const admin = { tags: ['risk (operator)'], security: ADMIN_SECURITY };
  const risk = deps.risk;

  app.get<{ Params: PlayerRiskParams }>(
    '/players/:player_id/risk',
    {
      preHandler: app.requirePartner,
      schema: {
        ...partner,
        operationId: 'getPlayerRisk',
        summary: "A player's risk score, group and stake factor",
        description:
          "The score in [0, 1] from the closing-line value of the player's settled bets, shrunk towards 0.5 for " +
          'players with few bets, with the risk group and its stake factor.',
        params: PlayerRiskParams,
        response: { 200: PlayerRiskView, ...errors(400, 401, 403) },
      },
    },
    async (req) => getPlayerRisk(risk, partnerOf(req).whiteLabelId, req.params.player_id),
  );

  app.put<{ Params: PlayerRiskParams; Body: PutPlayerRiskBody }>(
    '/players/:player_id/risk',
    {
      preHandler: app.requirePartner,
      schema: {
        ...partner,
        operationId: 'putPlayerRisk',
        summary: "Set a player's risk group",
        description:
          "Puts the player in a risk group, e.g. `blocked` for self-exclusion: that player's bets are then " +
          'declined `player_limit`. Audited.',
        params: PlayerRiskParams,
        body: PutPlayerRiskBody,
        response: { 200: PlayerRiskView, ...errors(400, 401, 403) },
      },
    },
    async (req) => {
      const p = partnerOf(req);
      return putPlayerRisk(risk, {
        whiteLabelId: p.whiteLabelId,
        playerId: req.params.player_id,
        group: req.body.group,
        source: 'partner',
        actor: req.user ? actorOf(req) : `partner:${p.whiteLabelId}`,
      });
    },
  );

  app.get<{ Querystring: ExposureQuery }>(
    '/admin/risk/exposure',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'listExposure',
        summary: 'Exposure per outcome, by sport event and market',
        description:
          'Stored exposure (EUR) of outcomes with open bets, largest first, with the limit that applies; ' +
          'filter by white label, sport event and market.',
        querystring: ExposureQuery,
        response: { 200: ExposureList, ...errors(400, 401) },
      },
    },
    async (req) => {
      const settings = await risk.book.get();
      const rows = await listExposure(deps.database.db, {
        ...(req.query.white_label_id ? { whiteLabelId: req.query.white_label_id } : {}),
        ...(req.query.sport_event_id ? { sportEventId: req.query.sport_event_id } : {}),
        ...(req.query.market_id ? { marketId: req.query.market_id } : {}),
        ...(req.query.limit ? { limit: Number(req.query.limit) } : {}),
      });
      return {
        items: rows.map((r) => exposureView(settings, r)),
      };
    },
  );

  app.get<{ Querystring: ShadingQuery }>(
    '/admin/risk/shading',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'listShadingHistory',
        summary: 'Odds lowered by shading',
        description:
          'Every outcome whose published odds shading lowered at least once (kept after the odds are restored): ' +
          'the base odds, the lowest published, and how many times lowered odds were published.',
        querystring: ShadingQuery,
        response: { 200: ShadingList, ...errors(400, 401) },
      },
    },
    async (req) => {
      const rows = await listShadingHistory(deps.database.db, {
        ...(req.query.sport_event_id ? { sportEventId: req.query.sport_event_id } : {}),
        ...(req.query.limit ? { limit: Number(req.query.limit) } : {}),
      });
      return {
        items: rows.map((r) => ({
          ...r,
          base_odds: formatFeedOddValue(parseDecimal(r.base_odds, { field: 'base_odds', maxDecimals: 12 })),
          lowest_odds: formatFeedOddValue(
            parseDecimal(r.lowest_odds, { field: 'lowest_odds', maxDecimals: 12 }),
          ),
        })),
      };
    },
  );

  app.get(
    '/admin/risk/settings',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'getRiskSettings',
        summary: 'Limits, risk groups and bet delays',
        description: 'Every liability limit, risk group and bet delay level.',
        response: { 200: RiskSettings, ...errors(401) },
      },
    },
    async () => riskSettings(risk),
  );

  app.put<{ Body: RiskLimitBody }>(
    '/admin/risk/limits',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'putRiskLimit',
        summary: 'Set a liability limit per outcome',
        description:
          "Per white label and market type ('*' for any), live or prematch, EUR; null removes it. Audited; " +
          'effective without a restart.',
        body: RiskLimitBody,
        response: { 200: RiskSettings, ...errors(400, 401, 404) },
      },
    },
    async (req) => {
      await setLimit(risk, req.body, operatorOf(req));
      return riskSettings(risk);
    },
  );

  app.put<{ Body: RiskGroupBody }>(
    '/admin/risk/groups',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'putRiskGroup',
        summary: 'Create or change a risk group',
        description:
          'Its stake factor (default 1, vip 5, restricted 0.2, blocked 0) and the max payout (EUR) a VIP ' +
          'recommended_max_payout is matched to. Audited; effective without a restart.',
        body: RiskGroupBody,
        response: { 200: RiskSettings, ...errors(400, 401) },
      },
    },
    async (req) => {
      await setGroup(risk, req.body, operatorOf(req));
      return riskSettings(risk);
    },
  );

  app.put<{ Body: BetDelayBody }>(
    '/admin/risk/delays',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'putBetDelay',
        summary: 'Set a bet delay level',
        description:
          'Per sport event, market type or risk group, live or prematch; the largest level applies. Audited; ' +
          'effective without a restart.',
        body: BetDelayBody,
        response: { 200: RiskSettings, ...errors(400, 401) },
      },
    },
    async (req) => {
      await setDelay(risk, req.body, operatorOf(req));
      return riskSettings(risk);
    },
  );

  app.get<{ Params: AdminPlayerRiskParams }>(
    '/admin/risk/players/:white_label_id/:player_id',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'getPlayerRiskAsOperator',
        summary: "A player's risk score, group and stake factor, as the operator",
        description: "As the partner's `GET /players/{player_id}/risk`, for any white label.",
        params: AdminPlayerRiskParams,
        response: { 200: PlayerRiskView, ...errors(400, 401) },
      },
    },
    async (req) => getPlayerRisk(risk, req.params.white_label_id, req.params.player_id),
  );

  app.put<{ Params: AdminPlayerRiskParams; Body: PutPlayerRiskBody }>(
    '/admin/risk/players/:white_label_id/:player_id',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'putPlayerRiskAsOperator',
        summary: "Set a player's risk group as the operator",
        description: "As the partner's `PUT /players/{player_id}/risk`, for any white label. Audited.",
        params: AdminPlayerRiskParams,
        body: PutPlayerRiskBody,
        response: { 200: PlayerRiskView, ...errors(400, 401) },
      },
    },
    async (req) =>
      putPlayerRisk(risk, {
        whiteLabelId: req.params.white_label_id,
        playerId: req.params.player_id,
        group: req.body.group,
        source: 'operator',
        actor: operatorOf(req),
      }),
  );

  app.post(
    '/admin/risk/recompute',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'recomputeExposure',
        summary: 'Recompute exposure from the bets and report any difference',
        description:
          "Recomputes each open bet's leg exposures and each outcome's total from the bets; reads only.",
        response: { 200: ExposureRecompute, ...errors(401) },
      },
    },
    async () => recomputeExposure(deps.database.db),
  );
}
