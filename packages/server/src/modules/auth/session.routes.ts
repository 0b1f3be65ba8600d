import {
  CreateSessionBody,
  CreateSessionResponse,
  ExpireSessionBody,
  OptionalCallbacksInput,
  PartnerWhiteLabelView,
} from '@bookie/contracts';
import type { FastifyInstance } from 'fastify';
import { partnerOf } from '../../http/request-context.js';
import { getWhiteLabel, updateWhiteLabel, whiteLabelView } from '../tenants/index.js';
import { createSession } from './create-session.js';
import type { AuthDeps } from './deps.js';
import { expireSession } from './expire-session.js';

/** Partner routes of tenancy: player session tokens (D26) and the partner's own white label. */
export async function sessionRoutes(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const common = { tags: ['sessions'], security: [{ bearer: [] }] };
  app.post<{ Body: CreateSessionBody }>(
    '/token/create',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'createSessionToken',
        description:
          "Makes a player session token for the betting frame: the partner calls it from its back end for a logged-in player (or with an empty `player_id` for a viewer who cannot bet). `params` come back to the partner in the `Foreign-Params` header of every callback of that player's bets.",
        summary: 'Create a player session token for the betting frame; an empty player_id makes a viewer',
        body: CreateSessionBody,
        response: { 200: CreateSessionResponse },
      },
    },
    async (req) => {
      const { token } = await createSession(deps, {
        whiteLabelId: partnerOf(req).whiteLabelId,
        body: req.body,
      });
      return { token };
    },
  );
  app.post<{ Body: { token: string } }>(
    '/token/expire',
    {
      preHandler: app.requirePartner,
      schema: {
        ...common,
        operationId: 'expireSessionToken',
        description:
          'Ends a player session token of the calling white label at once (for a logout); the frame asks its host for a new one.',
        summary: 'End a player session token of this white label',
        body: ExpireSessionBody,
        response: { 204: { type: 'null', description: 'the session token is ended' } },
      },
    },
    async (req, reply) => {
      await expireSession(deps, { whiteLabelId: partnerOf(req).whiteLabelId, token: req.body.token });
      return reply.status(204).send();
    },
  );
  app.get(
    '/white-label',
    {
      preHandler: app.requirePartner,
      schema: {
        tags: ['white labels'],
        security: [{ bearer: [] }],
        operationId: 'getOwnWhiteLabel',
        description:
          "The calling partner's own white label settings: currencies, limits, callback URL, allowlist. No secrets.",
        summary: "The calling partner's own white label (no secrets)",
        response: { 200: PartnerWhiteLabelView },
      },
    },
    async (req) => {
      const {
        signing: _s,
        credentials: _c,
        ...view
      } = whiteLabelView(await getWhiteLabel(deps, partnerOf(req).whiteLabelId));
      return view;
    },
  );
  app.put<{ Body: OptionalCallbacksInput }>(
    '/white-label/optional-callbacks',
    {
      preHandler: app.requirePartner,
      schema: {
        tags: ['white labels'],
        security: [{ bearer: [] }],
        operationId: 'announceOptionalCallbacks',
        description:
          "Announces which optional callbacks the partner's callback server implements (heartbeat, banners, cash_out, insurance, insurance_cancel): `true` implements it, `false` does not, `null` forgets the announcement; names left out keep their state. Heartbeats are sent only to a partner that announced them; cash-out is offered only while its callbacks are supported. Announcing a callback again forgets that Bookie learnt it unsupported from a 404, 405 or 501. Answers the white label as `GET /white-label` does.",
        summary: 'Announce the optional callbacks this partner implements',
        body: OptionalCallbacksInput,
        response: { 200: PartnerWhiteLabelView },
      },
    },
    async (req) => {
      const partner = partnerOf(req);
      const {
        signing: _s,
        credentials: _c,
        ...view
      } = await updateWhiteLabel(
        deps,
        { id: partner.whiteLabelId, changes: { optional_callbacks: req.body } },
        `partner:${partner.clientId}`,
      );
      return view;
    },
  );
}
