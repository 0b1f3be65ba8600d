import {
  ExposureList,
  errorAnswers,
  PlayerRiskView,
  PutPlayerRiskBody,
  RestrictionsAnswer,
  RestrictionsQuery,
} from '@bookie/contracts';
import { formatFeedOddValue, formatMoney, parseDecimal } from '@bookie/core';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import { ADMIN_SECURITY, actorOf, PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import { cashOutMargins, type MarginDeps, setCashOutMargin } from '../cash-out/cash-out-margin.js';
import type { RiskDeps } from './deps.js';
import { getRestrictions } from './get-restrictions.js';
import { getPlayerRisk, putPlayerRisk } from './player-risk.js';
import { recomputeExposure } from './recompute-exposure.js';
import { listExposure, listShadingHistory } from './risk.repo.js';
import { liabilityLimitOf } from './risk-book.js';
import { riskSettings, setDelay, setGroup, setLimit } from './risk-settings.js';

const errors = (...codes: number[]) => errorAnswers(...codes);
const PlayerParams = Type.Object({ player_id: Type.String({ minLength: 1, maxLength: 128 }) });
const AdminPlayerParams = Type.Object({
  white_label_id: Type.String({ minLength: 1, maxLength: 64 }),
  player_id: Type.String({ minLength: 1, maxLength: 128 }),
});
const ExposureQuery = Type.Object(
  {
    white_label_id: Type.Optional(Type.String({ minLength: 1 })),
    sport_event_id: Type.Optional(Type.String({ minLength: 1 })),
    market_id: Type.Optional(Type.String({ minLength: 1 })),
    limit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,3}$|^10000$', description: 'rows, 1–10000 (default 1000)' }),
    ),
  },
  { additionalProperties: false },
);
const ShadingQuery = Type.Object(
  {
    sport_event_id: Type.Optional(Type.String({ minLength: 1 })),
    limit: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,3}$|^10000$', description: 'rows, 1–10000 (default 1000)' }),
    ),
  },
  { additionalProperties: false },
);
const ShadingList = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        sport_event_id: Type.String(),
        market_id: Type.String(),
        odd_id: Type.String(),
        market_type_id: Type.String(),
        base_odds: Type.String({ description: 'the odds trading set, before shading' }),
        lowest_odds: Type.String({ description: 'the lowest odds shading published' }),
        publications: Type.Integer({ description: 'how many times lowered odds were published' }),
      }),
    ),
  },
  {
    examples: [
      {
        items: [
          {
            sport_event_id: 'se-1',
            market_id: '1',
            odd_id: '1',
            market_type_id: '1',
            base_odds: '2.100',
            lowest_odds: '1.950',
            publications: 3,
          },
        ],
      },
    ],
  },
);
const LimitBody = Type.Object(
  {
    white_label_id: Type.String({ minLength: 1 }),
    market_type_id: Type.String({ minLength: 1, description: "a market type id, or '*' for every type" }),
    phase: Type.Union([Type.Literal('live'), Type.Literal('prematch')]),
    liability_eur: Type.Union([Type.String(), Type.Null()], {
      description: 'EUR per outcome; null removes it',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ white_label_id: 'wl-1', market_type_id: '*', phase: 'prematch', liability_eur: '5000' }],
  },
);
const GroupBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 40 }),
    stake_factor: Type.String({ description: 'decimal ≥ 0; 0 blocks' }),
    max_payout_eur: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'high_roller', stake_factor: '3', max_payout_eur: '100000' }],
  },
);
const DelayBody = Type.Object(
  {
    level: Type.Union([Type.Literal('sport_event'), Type.Literal('market_type'), Type.Literal('risk_group')]),
    key: Type.String({ minLength: 1, maxLength: 128 }),
    phase: Type.Union([Type.Literal('live'), Type.Literal('prematch')]),
    seconds: Type.Union([Type.String(), Type.Null()], {
      description: '0–300, at most 3 decimals; null removes it',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ level: 'market_type', key: '1', phase: 'live', seconds: '9' }],
  },
);
const Settings = Type.Object(
  {
    limits: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    groups: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    delays: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    examples: [
      {
        limits: [
          { white_label_id: 'wl-1', market_type_id: '*', phase: 'prematch', liability_eur: '5000.000000' },
        ],
        groups: [{ name: 'vip', stake_factor: '5.000000', max_payout_eur: '250000.000000' }],
        delays: [{ level: 'market_type', key: '1', phase: 'live', seconds: '9' }],
      },
    ],
  },
);
const Recompute = Type.Object(
  {
    ok: Type.Boolean(),
    bets_checked: Type.Integer(),
    bets_without_exposure: Type.Integer(),
    outcome_differences: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    bet_differences: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    examples: [
      { ok: true, bets_checked: 120, bets_without_exposure: 0, outcome_differences: [], bet_differences: [] },
    ],
  },
);

const MarginBody = Type.Object(
  {
    white_label_id: Type.String({ minLength: 1, maxLength: 64 }),
    margin: Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
      description: 'a fraction in [0, 1), at most 6 decimals; null removes it (the default applies)',
    }),
  },
  { additionalProperties: false, examples: [{ white_label_id: 'wl-1', margin: '0.04' }] },
);
const Margins = Type.Object(
  {
    default_margin: Type.String({
      description: 'the margin of white labels without their own (CASH_OUT_MARGIN)',
    }),
    margins: Type.Array(Type.Object({ white_label_id: Type.String(), margin: Type.String() })),
  },
  {
    examples: [{ default_margin: '0.050000', margins: [{ white_label_id: 'wl-1', margin: '0.040000' }] }],
  },
);

function operator(req: FastifyRequest): string {
  if (req.user) return actorOf(req);
  const who = req.headers['x-operator'];
  return `admin-api:${typeof who === 'string' && who ? who.slice(0, 100) : 'operator'}`;
}

/** What the risk routes need: the risk engine's deps, the one decision's (`GET /restrictions`) and cash-out margins. */
export interface RiskRoutesDeps {
  database: Database;
  risk: RiskDeps;
  placement: Parameters<typeof getRestrictions>[0];
  margins: MarginDeps;
}

/**
 * The risk engine's HTTP API: partners' `GET /restrictions` (D35) and players' risk (D40); the operator's exposure
 * per sport event and market (D37), limits, groups and delays (D34, D38), and the exposure recompute.
 */
export async function riskRoutes(app: FastifyInstance, deps: RiskRoutesDeps): Promise<void> {
  const partner = { tags: ['risk'], security: PARTNER_SECURITY };
  const admin = { tags: ['risk (operator)'], security: ADMIN_SECURITY };
  const risk = deps.risk;

  app.get<{ Querystring: RestrictionsQuery }>(
    '/restrictions',
    {
      preHandler: app.requirePartner,
      schema: {
        ...partner,
        operationId: 'getRestrictions',
        summary: 'What placing a bet now would decide, without placing it',
        description:
          "The one decision (integrity, odds strategy, bet type, limits, exposure, the player's risk group) on a bet " +
          'given as query parameters. Without `stake` it answers the largest acceptable stake, which a bet ' +
          "slip shows. No bet is recorded; a player's first request is (the group it gives, raised by " +
          "`recommended_max_payout`, stays the player's: later values are ignored).",
        querystring: RestrictionsQuery,
        response: { 200: RestrictionsAnswer, ...errors(400, 401, 403, 429) },
      },
    },
    async (req) => getRestrictions(deps.placement, partnerOf(req).whiteLabelId, req.query),
  );

  app.get<{ Params: Static<typeof PlayerParams> }>(
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
        params: PlayerParams,
        response: { 200: PlayerRiskView, ...errors(400, 401, 403) },
      },
    },
    async (req) => getPlayerRisk(risk, partnerOf(req).whiteLabelId, req.params.player_id),
  );

  app.put<{ Params: Static<typeof PlayerParams>; Body: PutPlayerRiskBody }>(
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
        params: PlayerParams,
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

  app.get<{ Querystring: Static<typeof ExposureQuery> }>(
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
        items: rows.map((r) => {
          const limit = liabilityLimitOf(settings, r.white_label_id, r.market_type_id, r.phase);
          return {
            white_label_id: r.white_label_id,
            sport_event_id: r.sport_event_id,
            market_id: r.market_id,
            odd_id: r.odd_id,
            phase: r.phase,
            market_type_id: r.market_type_id,
            exposure_eur: formatMoney(
              parseDecimal(r.amount, { field: 'amount', maxDecimals: 6, allowNegative: true }),
            ),
            max_exposure_eur: formatMoney(
              parseDecimal(r.max_amount, { field: 'max_amount', maxDecimals: 6 }),
            ),
            limit_eur: limit ? formatMoney(limit) : null,
          };
        }),
      };
    },
  );

  app.get<{ Querystring: Static<typeof ShadingQuery> }>(
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
        response: { 200: Settings, ...errors(401) },
      },
    },
    async () => riskSettings(risk),
  );

  app.put<{ Body: Static<typeof LimitBody> }>(
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
        body: LimitBody,
        response: { 200: Settings, ...errors(400, 401, 404) },
      },
    },
    async (req) => {
      await setLimit(risk, req.body, operator(req));
      return riskSettings(risk);
    },
  );

  app.put<{ Body: Static<typeof GroupBody> }>(
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
        body: GroupBody,
        response: { 200: Settings, ...errors(400, 401) },
      },
    },
    async (req) => {
      await setGroup(risk, req.body, operator(req));
      return riskSettings(risk);
    },
  );

  app.put<{ Body: Static<typeof DelayBody> }>(
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
        body: DelayBody,
        response: { 200: Settings, ...errors(400, 401) },
      },
    },
    async (req) => {
      await setDelay(risk, req.body, operator(req));
      return riskSettings(risk);
    },
  );

  app.get<{ Params: Static<typeof AdminPlayerParams> }>(
    '/admin/risk/players/:white_label_id/:player_id',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'getPlayerRiskAsOperator',
        summary: "A player's risk score, group and stake factor, as the operator",
        description: "As the partner's `GET /players/{player_id}/risk`, for any white label.",
        params: AdminPlayerParams,
        response: { 200: PlayerRiskView, ...errors(400, 401) },
      },
    },
    async (req) => getPlayerRisk(risk, req.params.white_label_id, req.params.player_id),
  );

  app.put<{ Params: Static<typeof AdminPlayerParams>; Body: PutPlayerRiskBody }>(
    '/admin/risk/players/:white_label_id/:player_id',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'putPlayerRiskAsOperator',
        summary: "Set a player's risk group as the operator",
        description: "As the partner's `PUT /players/{player_id}/risk`, for any white label. Audited.",
        params: AdminPlayerParams,
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
        actor: operator(req),
      }),
  );

  const margins = deps.margins;
  app.get(
    '/admin/risk/cash-out-margins',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'getCashOutMargins',
        summary: "Cash-out margins: the default and each white label's own",
        description:
          'A cash-out offer is the fair value of the bet × (1 − margin). White labels without their own margin ' +
          'use the default (`CASH_OUT_MARGIN`).',
        response: { 200: Margins, ...errors(401) },
      },
    },
    async () => cashOutMargins(margins),
  );

  app.put<{ Body: Static<typeof MarginBody> }>(
    '/admin/risk/cash-out-margins',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...admin,
        operationId: 'putCashOutMargin',
        summary: "Set a white label's cash-out margin",
        description:
          'A fraction in [0, 1) with at most 6 decimals; null removes it and the default applies again. Audited; ' +
          'effective without a restart (within RISK_SETTINGS_CACHE_MS in every process).',
        body: MarginBody,
        response: { 200: Margins, ...errors(400, 401, 404) },
      },
    },
    async (req) => setCashOutMargin(margins, req.body, operator(req)),
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
        response: { 200: Recompute, ...errors(401) },
      },
    },
    async () => recomputeExposure(deps.database.db),
  );
}
