import type { Database } from '../../db/database.js';
import { CERTIFICATE_PRINCIPAL, findCertificateStates, findCredentialStates } from '../auth/index.js';
import { isAllowed } from '../tenants/index.js';

/** An open `/log` stream: the credential its token was issued to and the address it reads from. */
export interface OpenStream {
  credentialId: string;
  address: string;
}

/** Why a stream must end, or undefined when it may go on. */
export type StreamVerdict = 'credential revoked' | 'address off the allowlist' | undefined;

/**
 * Checks open `/log` streams again (docs/adr/0005-tenancy.md "Long-lived streams"): a stream was authenticated when
 * it opened, and must end once its credential is revoked (or gone) or its address leaves the white label's
 * allowlist — the same checks a new request meets (DECISIONS D27). The token's own expiry does not end a stream:
 * it bounds when a token can open one. One query for all the streams of the process.
 *
 * @returns one verdict per stream, in order.
 */
export async function recheckStreams(
  deps: { database: Database },
  streams: readonly OpenStream[],
): Promise<StreamVerdict[]> {
  const ids = [...new Set(streams.map((s) => s.credentialId))];
  const certificates = ids.filter((id) => id.startsWith(CERTIFICATE_PRINCIPAL));
  const credentials = ids.filter((id) => !id.startsWith(CERTIFICATE_PRINCIPAL));
  const states = new Map<string, { revoked_at: Date | null; allowlist: string[] }>(
    (await findCredentialStates(deps.database.db, credentials)).map((row) => [row.credential_id, row]),
  );
  // a stream opened by a client certificate alone ends when the certificate is revoked (docs/adr/0016)
  for (const row of await findCertificateStates(
    deps.database.db,
    certificates.map((id) => id.slice(CERTIFICATE_PRINCIPAL.length)),
  )) {
    states.set(`${CERTIFICATE_PRINCIPAL}${row.id}`, row);
  }
  return streams.map((s) => {
    const state = states.get(s.credentialId);
    if (!state || state.revoked_at !== null) return 'credential revoked';
    if (!isAllowed(state.allowlist, s.address)) return 'address off the allowlist';
    return undefined;
  });
}
