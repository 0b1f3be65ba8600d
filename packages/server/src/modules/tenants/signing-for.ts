import { signCallback } from '@bookie/sdk/signing';
import type { Executor } from '../../db/transaction.js';
import type { TenancyDeps } from './deps.js';
import { getWhiteLabel } from './get-white-label.js';
import type { WhiteLabel } from './white-label.js';

/** Signs outgoing callbacks of one white label (DECISIONS D11). */
export interface CallbackSigner {
  /** False when the white label turned signing off: {@link CallbackSigner.headers} then returns `{}`. */
  readonly enabled: boolean;
  /**
   * The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers for one delivery attempt of
   * `body` (the exact bytes sent). `id` is the callback's `request_id` (D7); `at` defaults to the clock.
   * During a rotation's grace period the signature header carries two `v1,…` signatures.
   */
  headers(id: string, body: string | Uint8Array, at?: Date): Record<string, string>;
}

/** A signer from a white label already loaded (no database access). */
export function signerOf(wl: WhiteLabel, now: () => number): CallbackSigner {
  if (!wl.signing.enabled) return { enabled: false, headers: () => ({}) };
  return {
    enabled: true,
    headers(id, body, at) {
      const timestamp = at ?? new Date(now());
      const main = signCallback({ secret: wl.signing.secret, id, timestamp, body });
      const until = wl.signing.previousSecretUntil;
      if (wl.signing.previousSecret && until && until.getTime() > timestamp.getTime()) {
        const old = signCallback({ secret: wl.signing.previousSecret, id, timestamp, body });
        main['webhook-signature'] = `${main['webhook-signature']} ${old['webhook-signature']}`;
      }
      return { ...main };
    },
  };
}

/**
 * The callback signer of a white label, read fresh from the database (so a rotation or a switch applies to
 * the next delivery). The callback outbox calls this per delivery attempt (or per batch of one white label).
 *
 * @throws DomainError not_found for an unknown white label.
 */
export async function signingFor(
  deps: TenancyDeps,
  whiteLabelId: string,
  db: Executor = deps.database.db,
): Promise<CallbackSigner> {
  const wl = await getWhiteLabel(deps, whiteLabelId, db);
  return signerOf(wl, () => deps.clock.now());
}
