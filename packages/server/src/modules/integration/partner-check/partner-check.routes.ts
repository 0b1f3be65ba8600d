import { OPTIONAL_CALLBACKS, PartnerCheckReport, PartnerCheckRequest } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyInstance } from 'fastify';
import { ErrorResponse } from '../../../http/openapi.js';
import { getWhiteLabel, optionalCallbacksView } from '../../tenants/index.js';
import type { IntegrationDeps } from '../deps.js';
import { runPartnerCheck } from './run-partner-check.js';
import { SCENARIO_IDS } from './scenarios.js';

/**
 * `POST /integration/partner-check`: the partner check against the calling white label's own callback URL, signed
 * with its own signing secret (so the API cannot be pointed at another server). Integration environment only.
 */
export async function partnerCheckRoutes(app: FastifyInstance, deps: IntegrationDeps): Promise<void> {
  app.post<{ Body: PartnerCheckRequest }>(
    '/integration/partner-check',
    {
      preHandler: app.requirePartner,
      schema: {
        operationId: 'runPartnerCheck',
        tags: ['integration'],
        summary: "Play every callback scenario against the white label's callback server",
        description:
          "Plays every callback scenario of the contract against the white label's callback URL as the platform " +
          'would (place/accept, place/decline, final place errors, settle win/loss/refund/half, unsettle and settle ' +
          'again, insurance, cash-out, heartbeat, duplicates, a retry after a timeout, omitted optional fields, ' +
          "unknown fields), signed with the white label's signing secret; keeps the balance the partner should show " +
          'and reads the balance where the partner serves `GET /players/{id}/balance` like the reference wallet. ' +
          'The player must hold at least 20 in the currency. Answers the report; `ok` is false when a scenario ' +
          `failed. Scenario ids: ${SCENARIO_IDS.join(', ')}. Integration environment only.`,
        security: [{ bearer: [] }],
        body: PartnerCheckRequest,
        response: {
          200: PartnerCheckReport,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          409: ErrorResponse,
          500: ErrorResponse,
        },
      },
    },
    async (request) => {
      const principal = request.partner;
      if (!principal) throw new DomainError('unauthorized', 'partner authentication required');
      const unknown = request.body.only?.find((id) => !SCENARIO_IDS.includes(id));
      if (unknown) {
        throw new DomainError('validation_error', `body.only: unknown scenario "${unknown}"`, {
          field: 'body.only',
        });
      }
      const wl = await getWhiteLabel(deps, principal.whiteLabelId);
      if (!wl.callbackUrl) {
        throw new DomainError(
          'conflict',
          'the white label has no callback_url yet; announce the callback server first',
        );
      }
      const report = await runPartnerCheck({
        callbackUrl: wl.callbackUrl,
        secret: wl.signing.enabled ? wl.signing.secret : undefined,
        playerId: request.body.player_id,
        currency: request.body.currency ?? 'EUR',
        timeoutMs: deps.config.callbacks.timeoutMs,
        ...(request.body.only ? { only: request.body.only } : {}),
        provoke: {
          unknownSession: request.body.unknown_session_params,
          expiredSession: request.body.expired_session_params,
          limitedPlayer: request.body.limited_player_id,
        },
      });
      // beside what the check found: what the partner announced and what Bookie learnt from live traffic
      const known = optionalCallbacksView(wl);
      for (const name of OPTIONAL_CALLBACKS) {
        const { announced, learnt, supported } = known[name];
        report.optional_callbacks[name] = {
          ...(report.optional_callbacks[name] ?? { checked: 'not_checked' }),
          announced,
          learnt,
          supported,
        };
      }
      return report;
    },
  );
}
