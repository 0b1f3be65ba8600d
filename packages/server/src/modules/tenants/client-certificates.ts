import { randomUUID, X509Certificate } from 'node:crypto';
import { DomainError, validationError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import type { Actor, TenancyDeps } from './deps.js';
import {
  audit,
  type CertificateRow,
  findCertificate,
  findWhiteLabel,
  insertCertificate,
  revokeCertificateRow,
} from './tenants.repo.js';

/** A client certificate bound to a white label, as the admin tools show it. */
export interface CertificateView {
  white_label_id: string;
  /** SHA-256 of the DER certificate, lowercase hex. */
  fingerprint: string;
  subject: string;
  created_at: string;
  revoked_at: string | null;
}

function view(r: CertificateRow): CertificateView {
  return {
    white_label_id: r.white_label_id,
    fingerprint: r.fingerprint,
    subject: r.subject,
    created_at: new Date(r.created_at).toISOString(),
    revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
  };
}

/** The SHA-256 fingerprint of a certificate as stored: lowercase hex without separators (`AB:CD:…` accepted). */
export function normaliseFingerprint(raw: string): string {
  return raw.replace(/:/g, '').toLowerCase();
}

/**
 * Binds a client certificate (PEM) to a white label (spec 02 "Authentication": the feed client holds a certificate
 * and its key): its SHA-256 fingerprint and subject are stored, and a connection presenting it (signed by the
 * server's client CA) reads the feed as that white label without a bearer token (docs/adr/0016). Audited.
 *
 * @throws DomainError validation_error (`certificate`: not a PEM certificate), not_found (white label), conflict
 * (the certificate is bound already).
 */
export async function addCertificate(
  deps: TenancyDeps,
  input: { whiteLabelId: string; pem: string },
  actor: Actor = 'admin-api',
): Promise<CertificateView> {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(input.pem);
  } catch (err) {
    throw validationError('certificate', `not a PEM certificate: ${(err as Error).message}`);
  }
  const fingerprint = normaliseFingerprint(cert.fingerprint256);
  const now = new Date(deps.clock.now());
  return inTransaction(deps.database.db, async (tx) => {
    if (!(await findWhiteLabel(tx, input.whiteLabelId))) {
      throw new DomainError('not_found', `white label ${input.whiteLabelId} not found`);
    }
    const existing = await findCertificate(tx, fingerprint);
    if (existing) {
      throw new DomainError('conflict', `certificate ${fingerprint} is bound already`, {
        white_label_id: existing.white_label_id,
      });
    }
    const row = await insertCertificate(tx, {
      id: randomUUID(),
      white_label_id: input.whiteLabelId,
      fingerprint,
      subject: cert.subject,
      created_at: now,
    });
    await audit(tx, {
      at: now,
      actor,
      action: 'certificate.add',
      subject: `white_label:${input.whiteLabelId}`,
      details: JSON.stringify({ fingerprint, subject: cert.subject }),
    });
    return view(row);
  });
}

/**
 * Revokes a white label's client certificate: from the next request on it opens nothing, and open feed streams
 * on it end at the next re-check. Idempotent; audited.
 *
 * @throws DomainError not_found when the white label has no such certificate.
 */
export async function revokeCertificate(
  deps: TenancyDeps,
  input: { whiteLabelId: string; fingerprint: string },
  actor: Actor = 'admin-api',
): Promise<CertificateView> {
  const fingerprint = normaliseFingerprint(input.fingerprint);
  const now = new Date(deps.clock.now());
  return inTransaction(deps.database.db, async (tx) => {
    const row = await revokeCertificateRow(tx, input.whiteLabelId, fingerprint, now);
    if (!row) {
      throw new DomainError(
        'not_found',
        `certificate ${fingerprint} not found for white label ${input.whiteLabelId}`,
      );
    }
    await audit(tx, {
      at: now,
      actor,
      action: 'certificate.revoke',
      subject: `white_label:${input.whiteLabelId}`,
      details: JSON.stringify({ fingerprint }),
    });
    return view(row);
  });
}
