import {
  BuilderCalculateAnswer,
  BuilderCalculateBody,
  BuilderSelectionsAnswer,
  BuilderSelectionsBody,
  BuilderSettingsBody,
  BuilderSettingsView,
  errorAnswers,
} from '@bookie/contracts';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Database } from '../../db/database.js';
import { ADMIN_SECURITY, operatorOf, PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf, playerOf } from '../../http/request-context.js';
import { builderSelections, calculateBuilderQuote } from './calculate-builder.js';
import type { BetBuilderDeps } from './deps.js';
import { builderSettingsView, setBuilderSettings } from './settings.js';

const SELECTIONS_TEXT =
  'The odds of the sport event that can start a builder, or join the legs already chosen, each with the odds the ' +
  'builder would then have (the white label’s builder margin). Builders are football, pre-match, on markets decided ' +
  'by the final score (docs/adr/0042-bet-builder-pricing.md). `available` false with a `refusal` when the event ' +
  'takes no builder or the chosen legs are refused.';
const CALCULATE_TEXT =
  'Prices the legs as one builder: the combined odds (fair odds / (1 + builder margin), rounded down to 3 ' +
  'decimals, between 1.01 and 1000), the probability every leg wins, the probability the builder is refunded, each ' +
  'leg’s probability, the odds still addable, and a signed `quote` of the odds that holds until `expires_at` ' +
  '(pass it with the builder selection when placing). Refused: `available` false and a `refusal` naming the leg ' +
  '(e.g. `contradictory`, `same_market`, `too_many_legs`).';

/** What the builder routes need: the calculator's deps, and the database for the operator's settings. */
export interface BetBuilderRoutesDeps {
  builder: BetBuilderDeps;
  database: Database;
}

/**
 * Partner REST of the bet builder (docs/adr/0045-bet-builder-api.md): the selections a builder can take and the
 * builder calculator, for the caller's white label; and the operator's builder settings (margin, most legs) under the
 * risk admin paths.
 */
export async function betBuilderRoutes(app: FastifyInstance, deps: BetBuilderRoutesDeps): Promise<void> {
  const common = { tags: ['bet builder'], security: PARTNER_SECURITY };
  const bd = deps.builder;
  app.post<{ Body: BuilderSelectionsBody }>(
    '/bet-builder/selections',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'builderSelections',
        summary: 'Selections available for a bet builder, given the legs already chosen',
        description: SELECTIONS_TEXT,
        body: BuilderSelectionsBody,
        response: { 200: BuilderSelectionsAnswer, ...errorAnswers(400, 401, 403, 404, 429) },
      },
    },
    async (req) => builderSelections(bd, partnerOf(req).whiteLabelId, req.body),
  );
  app.post<{ Body: BuilderCalculateBody }>(
    '/bet-builder/calculate',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'calculateBuilder',
        summary: 'Price a bet builder and quote its odds',
        description: CALCULATE_TEXT,
        body: BuilderCalculateBody,
        response: { 200: BuilderCalculateAnswer, ...errorAnswers(400, 401, 403, 404, 429) },
      },
    },
    async (req) => calculateBuilderQuote(bd, partnerOf(req).whiteLabelId, req.body),
  );

  const operator = { tags: ['risk (operator)'], security: ADMIN_SECURITY };
  app.get(
    '/admin/risk/bet-builder-settings',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...operator,
        operationId: 'getBuilderSettings',
        summary: "Bet builder settings: the defaults and each white label's own",
        description:
          'The builder margin (offered odds = fair odds / (1 + margin)) and the most legs a builder takes. White ' +
          'labels without their own use the defaults (margin 0.1, 10 legs).',
        response: { 200: BuilderSettingsView, ...errorAnswers(401) },
      },
    },
    async () => builderSettingsView(deps.database),
  );
  app.put<{ Body: BuilderSettingsBody }>(
    '/admin/risk/bet-builder-settings',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...operator,
        operationId: 'putBuilderSettings',
        summary: "Set a white label's bet builder margin and most legs",
        description:
          'The margin is a fraction in [0, 1) with at most 6 decimals; most legs 1..10; null removes the white ' +
          "label's own value and the default applies again; an absent field is left as it is. Audited; effective " +
          'without a restart (within RISK_SETTINGS_CACHE_MS in every process).',
        body: BuilderSettingsBody,
        response: { 200: BuilderSettingsView, ...errorAnswers(400, 401, 404) },
      },
    },
    async (req) => setBuilderSettings(deps.database, req.body, operatorOf(req)),
  );
}

/** The player's bet builder in the frame: the same selections and calculator, for the session's white label. */
export function frameBetBuilderRoutes(
  app: FastifyInstance,
  bd: BetBuilderDeps,
  player: preHandlerHookHandler[],
  errors: Record<number, unknown>,
): void {
  const common = { tags: ['frame'], security: [{ bearer: [] }] };
  const wl = (req: FastifyRequest) => playerOf(req).whiteLabelId;
  app.post<{ Body: BuilderSelectionsBody }>(
    '/frame-api/bet-builder/selections',
    {
      preHandler: player,
      schema: {
        ...common,
        operationId: 'playerBuilderSelections',
        summary: 'Selections available for a bet builder, given the legs already chosen',
        description: SELECTIONS_TEXT,
        body: BuilderSelectionsBody,
        response: { 200: BuilderSelectionsAnswer, 404: errors[400], ...errors },
      },
    },
    async (req) => builderSelections(bd, wl(req), req.body),
  );
  app.post<{ Body: BuilderCalculateBody }>(
    '/frame-api/bet-builder/calculate',
    {
      preHandler: player,
      schema: {
        ...common,
        operationId: 'playerCalculateBuilder',
        summary: 'Price a bet builder and quote its odds',
        description: CALCULATE_TEXT,
        body: BuilderCalculateBody,
        response: { 200: BuilderCalculateAnswer, 404: errors[400], ...errors },
      },
    },
    async (req) => calculateBuilderQuote(bd, wl(req), req.body),
  );
}
