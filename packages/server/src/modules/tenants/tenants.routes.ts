import {
  AddClientCertificateBody,
  ClientCertificateView,
  CreatedWhiteLabel,
  CreateWhiteLabelBody,
  NewWhiteLabelCredential,
  RotatedSigningSecret,
  RotateSigningSecretBody,
  UpdateWhiteLabelBody,
  WhiteLabelCertificateParams,
  WhiteLabelCredentialParams,
  WhiteLabelCredentialView,
  WhiteLabelIdParams,
  WhiteLabelList,
  WhiteLabelView,
} from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ADMIN_SECURITY, actorOf } from '../../http/auth.js';
import { addCredential } from './add-credential.js';
import { addCertificate, revokeCertificate } from './client-certificates.js';
import { createWhiteLabel } from './create-white-label.js';
import type { TenantsRoutesDeps } from './deps.js';
import { showWhiteLabel } from './get-white-label.js';
import { listWhiteLabels } from './list-white-labels.js';
import { revokeCredential } from './revoke-credential.js';
import { rotateSigningSecret } from './rotate-signing-secret.js';
import { updateWhiteLabel } from './update-white-label.js';

/**
 * What a partner user may change of its own white label: where and how its server is reached, and which optional
 * callbacks it implements; limits, modes and currencies are the operator's.
 */
const PARTNER_USER_FIELDS = new Set([
  'callback_url',
  'allowlist',
  'allowed_origins',
  'optional_callbacks',
  'insurance_cancel_callbacks',
]);

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
export async function tenantsRoutes(app: FastifyInstance, deps: TenantsRoutesDeps): Promise<void> {
  const common = { tags: ['white labels'], security: ADMIN_SECURITY };
  app.post<{ Body: CreateWhiteLabelBody }>(
    '/admin/white-labels',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'createWhiteLabel',
        description:
          'Creates a white label (a partner) with its settings and its first OAuth client credential. The client secret is in this answer only. Without an `allowlist` every partner call is refused until one is set.',
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
      schema: {
        ...common,
        operationId: 'listWhiteLabels',
        description:
          'Every white label with its settings, signing state and credentials (never client secrets).',
        summary: 'List white labels',
        response: { 200: WhiteLabelList },
      },
    },
    async () => ({ white_labels: await listWhiteLabels(deps) }),
  );
  app.get<{ Params: { id: string } }>(
    '/admin/white-labels/:id',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        operationId: 'getWhiteLabel',
        description: 'One white label with its callback signing secret and its client credentials.',
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
        operationId: 'updateWhiteLabel',
        description:
          'Changes only the fields given; `currencies` and `allowlist` replace the lists, `null` clears a limit or the callback URL. Cached copies in every server process follow within seconds.',
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
        operationId: 'addWhiteLabelCredential',
        description:
          'Adds another OAuth client credential (for rotating credentials without downtime). The client secret is in this answer only.',
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
        operationId: 'revokeWhiteLabelCredential',
        description:
          'Revokes a client credential: new tokens are refused at once, and tokens already issued with it are refused from their next request; open feed streams end soon after.',
        summary: 'Revoke a client credential: its tokens are refused from the next request on',
        params: WhiteLabelCredentialParams,
        response: { 200: WhiteLabelCredentialView },
      },
    },
    async (req) =>
      revokeCredential(deps, { whiteLabelId: req.params.id, clientId: req.params.client_id }, actorOf(req)),
  );
  app.post<{ Params: { id: string }; Body: AddClientCertificateBody }>(
    '/admin/white-labels/:id/certificates',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'addWhiteLabelCertificate',
        description:
          "Binds a client certificate (PEM) to the white label for the feed's mutual TLS: a connection presenting it (signed by the server's client CA) reads the feed (/all, /log, /refetch) as this white label without a bearer token. 409 when it is bound already.",
        summary: "Bind a client certificate for the feed's mutual TLS",
        params: WhiteLabelIdParams,
        body: AddClientCertificateBody,
        response: { 201: ClientCertificateView },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await addCertificate(deps, { whiteLabelId: req.params.id, pem: req.body.pem }, actorOf(req))),
  );
  app.delete<{ Params: { id: string; fingerprint: string } }>(
    '/admin/white-labels/:id/certificates/:fingerprint',
    {
      preHandler: app.requireAdmin,
      schema: {
        ...common,
        operationId: 'revokeWhiteLabelCertificate',
        description:
          'Revokes a bound client certificate (by its SHA-256 fingerprint, hex, colons allowed): it opens nothing from the next request on.',
        summary: 'Revoke a client certificate',
        params: WhiteLabelCertificateParams,
        response: { 200: ClientCertificateView },
      },
    },
    async (req) =>
      revokeCertificate(
        deps,
        { whiteLabelId: req.params.id, fingerprint: req.params.fingerprint },
        actorOf(req),
      ),
  );
  app.post<{ Params: { id: string }; Body: RotateSigningSecretBody }>(
    '/admin/white-labels/:id/signing-secret/rotate',
    {
      preHandler: app.requireWhiteLabel,
      schema: {
        ...common,
        operationId: 'rotateSigningSecret',
        description:
          'Makes a new callback signing secret. During the grace period (`grace_seconds`, default SIGNING_SECRET_GRACE_S) callbacks carry signatures by both secrets, so the partner can switch without refusing any.',
        summary: 'Rotate the callback signing secret; the previous one still signs during the grace period',
        params: WhiteLabelIdParams,
        body: RotateSigningSecretBody,
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
