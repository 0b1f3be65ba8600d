import type { TLSSocket } from 'node:tls';
import { DomainError } from '@bookie/core';
import type { FastifyRequest } from 'fastify';
import type { PartnerPrincipal } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import { isAllowed } from '../tenants/index.js';
import { findCertificateBinding } from './auth.repo.js';

/** The prefix of a principal's `credentialId` when it authenticated by a client certificate. */
export const CERTIFICATE_PRINCIPAL = 'certificate:';

/**
 * The SHA-256 fingerprint (lowercase hex) of the client certificate the TLS handshake verified against the server's
 * client CA, or undefined (plain HTTP, no certificate, or one the CA did not sign).
 */
export function clientCertificateFingerprint(request: FastifyRequest): string | undefined {
  const socket = request.raw.socket as Partial<TLSSocket>;
  if (!socket.authorized || typeof socket.getPeerCertificate !== 'function') return undefined;
  const fp = socket.getPeerCertificate().fingerprint256;
  return typeof fp === 'string' && fp ? fp.replace(/:/g, '').toLowerCase() : undefined;
}

/**
 * A partner by its client certificate alone (spec 02 "Authentication"; docs/adr/0016): the certificate must be bound
 * to a white label (`bookie wl add-certificate`) and not revoked, and the address on that white label's allowlist.
 *
 * @throws DomainError unauthorized (`details.error = "invalid_token"`): not bound, or revoked.
 * @throws DomainError forbidden: an address off the allowlist.
 */
export async function authenticateCertificate(
  deps: Pick<PlatformServices, 'database'>,
  input: { fingerprint: string; address: string },
): Promise<PartnerPrincipal> {
  const b = await findCertificateBinding(deps.database.db, input.fingerprint);
  if (!b) {
    throw new DomainError(
      'unauthorized',
      'the client certificate is bound to no white label; send a bearer token',
      {
        error: 'invalid_token',
      },
    );
  }
  if (b.revoked_at !== null) {
    throw new DomainError('unauthorized', 'the client certificate was revoked', { error: 'invalid_token' });
  }
  if (!isAllowed(b.allowlist, input.address)) {
    throw new DomainError('forbidden', `address ${input.address} is not on the white label's allowlist`, {
      address: input.address,
    });
  }
  return {
    whiteLabelId: b.white_label_id,
    credentialId: `${CERTIFICATE_PRINCIPAL}${b.id}`,
    clientId: `${CERTIFICATE_PRINCIPAL}${b.fingerprint}`,
  };
}

/**
 * A bearer token's white label against the client certificate of the connection: a certificate bound to another
 * white label is refused.
 *
 * @throws DomainError forbidden.
 */
export async function assertCertificateOf(
  deps: Pick<PlatformServices, 'database'>,
  input: { fingerprint: string; whiteLabelId: string },
): Promise<void> {
  const b = await findCertificateBinding(deps.database.db, input.fingerprint);
  if (b && b.white_label_id !== input.whiteLabelId) {
    throw new DomainError('forbidden', 'the client certificate is bound to another white label');
  }
}
