import {
  CreatedWhiteLabel,
  CreateWhiteLabelBody,
  NewWhiteLabelCredential,
  RotatedSigningSecret,
  UpdateWhiteLabelBody,
  WhiteLabelCredentialParams,
  WhiteLabelCredentialView,
  WhiteLabelIdParams,
  WhiteLabelList,
  WhiteLabelView,
} from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app/wiring.js';
import { ADMIN_SECURITY, actorOf } from '../../http/auth.js';
import { addCredential } from './add-credential.js';
import { createWhiteLabel } from './create-white-label.js';
import { showWhiteLabel } from './get-white-label.js';
import { listWhiteLabels } from './list-white-labels.js';
import { revokeCredential } from './revoke-credential.js';
import { rotateSigningSecret } from './rotate-signing-secret.js';
import { updateWhiteLabel } from './update-white-label.js';

const RotateBody = Type.Union([
  Type.Object(
    { grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_592_000 })) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

/** What a partner user may change of its own white label; limits, modes and currencies are the operator's. */
const PARTNER_USER_FIELDS = new Set(['callback_url', 'allowlist', 'allowed_origins']);

function checkPartnerUserChanges(req: FastifyRequest, body: Record<string, unknown>): void {
  if (!req.user || req.user.role === 'operator') return;
  for (const key of Object.keys(body)) {
    if (!PARTNER_USER_FIELDS.has(key)) {
      throw new DomainError('forbidden', `body.${key}: only the operator changes it`, {
        field: `body.${key}`,
      });
    }
  }
}

/**
 * Admin API of white labels and their credentials: the operator token or an operator user (`app.requireAdmin`);
 * the routes of one white label (`/admin/white-labels/:id…`) also serve that white label's partner users
 * (`app.requireWhiteLabel`), who change only its callback URL, allowlist and allowed origins, its credentials and
 * its signing secret.
 */
export async function tenantsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const common = { tags: ['white labels'], security: ADMIN_SECURITY };
  app.post<{ Body: CreateWhiteLabelBody }>(
    '/admin/white-labels',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        summary: 'Create a white label and its first client credential (the secret is shown once)',
        body: CreateWhiteLabelBody,
        response: { 201: CreatedWhiteLabel },
      },
    },
    async (req, reply) => reply.status(201).send(await createWhiteLabel(deps, req.body, actorOf(req))),
  );
  app.get(
    '/admin/white-labels',
    {
      preHandler: app.requireAdmin,
      schema: { ...common, summary: 'List white labels', response: { 200: WhiteLabelList } },
    },
    async () => ({ white_labels: await listWhiteLabels(deps) }),
  );
  app.get<{ Params: { id: string } }>(
    '/admin/white-labels/:id',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        summary: 'Show a white label with its signing secret and credentials',
        params: WhiteLabelIdParams,
        response: { 200: WhiteLabelView },
      },
    },
    async (req) => showWhiteLabel(deps, req.params.id),
  );
  app.patch<{ Params: { id: string }; Body: UpdateWhiteLabelBody }>(
    '/admin/white-labels/:id',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        summary: 'Change a white label (only the fields given)',
        params: WhiteLabelIdParams,
        body: UpdateWhiteLabelBody,
        response: { 200: WhiteLabelView },
      },
    },
    async (req) => {
      checkPartnerUserChanges(req, req.body as Record<string, unknown>);
      return updateWhiteLabel(deps, { id: req.params.id, changes: req.body }, actorOf(req));
    },
  );
  app.post<{ Params: { id: string } }>(
    '/admin/white-labels/:id/credentials',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        summary: 'Add a client credential (the secret is shown once)',
        params: WhiteLabelIdParams,
        response: { 201: NewWhiteLabelCredential },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await addCredential(deps, { whiteLabelId: req.params.id }, actorOf(req))),
  );
  app.post<{ Params: { id: string; client_id: string } }>(
    '/admin/white-labels/:id/credentials/:client_id/revoke',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        summary: 'Revoke a client credential: its tokens are refused from the next request on',
        params: WhiteLabelCredentialParams,
        response: { 200: WhiteLabelCredentialView },
      },
    },
    async (req) =>
      revokeCredential(deps, { whiteLabelId: req.params.id, clientId: req.params.client_id }, actorOf(req)),
  );
  app.post<{ Params: { id: string }; Body: { grace_seconds?: number } | null }>(
    '/admin/white-labels/:id/signing-secret/rotate',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        summary: 'Rotate the callback signing secret; the previous one still signs during the grace period',
        params: WhiteLabelIdParams,
        body: RotateBody,
        response: { 200: RotatedSigningSecret },
      },
    },
    async (req) =>
      rotateSigningSecret(
        deps,
        {
          whiteLabelId: req.params.id,
          graceSeconds: req.body?.grace_seconds ?? deps.config.auth.signingGraceS,
        },
        actorOf(req),
      ),
  );
}
