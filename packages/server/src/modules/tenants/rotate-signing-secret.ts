import type { RotatedSigningSecret } from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { inTransaction } from '../../db/transaction.js';
import { whiteLabelChanged } from './cached-white-labels.js';
import type { Actor, TenancyDeps } from './deps.js';
import { newSigningSecret } from './secrets.js';
import { audit, lockWhiteLabel, updateWhiteLabel } from './tenants.repo.js';

/** Default grace period after a rotation during which callbacks carry both signatures: 24 h. */
export const DEFAULT_SIGNING_GRACE_S = 86_400;

/**
 * Replaces a white label's callback signing secret (DECISIONS D11). For `graceSeconds` after the rotation
 * every callback carries two signatures (Standard Webhooks allows several, space-separated): one with the new
 * secret and one with the previous, so a partner can switch its verifier at any time within the window.
 * `graceSeconds: 0` drops the previous secret at once.
 *
 * @throws DomainError not_found; validation_error for a negative grace.
 */
export async function rotateSigningSecret(
  deps: TenancyDeps,
  input: { whiteLabelId: string; graceSeconds?: number },
  actor: Actor = 'admin-api',
): Promise<RotatedSigningSecret> {
  const grace = input.graceSeconds ?? DEFAULT_SIGNING_GRACE_S;
  if (!Number.isSafeInteger(grace) || grace < 0 || grace > 30 * 86_400) {
    throw validationError('grace_seconds', 'must be a whole number of seconds, 0..2592000');
  }
  const now = new Date(deps.clock.now());
  const rotated = await inTransaction(deps.database.db, async (tx) => {
    const current = await lockWhiteLabel(tx, input.whiteLabelId);
    if (!current) throw new DomainError('not_found', `white label ${input.whiteLabelId} not found`);
    const secret = newSigningSecret();
    const until = grace > 0 ? new Date(now.getTime() + grace * 1000) : null;
    await updateWhiteLabel(
      tx,
      current.id,
      {
        signing_secret: secret,
        previous_signing_secret: until ? current.signing_secret : null,
        previous_signing_secret_until: until,
      },
      now,
    );
    await audit(tx, {
      at: now,
      actor,
      action: 'signing_secret.rotate',
      subject: `white_label:${current.id}`,
      details: JSON.stringify({ grace_seconds: grace }),
    });
    return { signing_secret: secret, previous_secret_valid_until: until ? until.toISOString() : null };
  });
  whiteLabelChanged(input.whiteLabelId);
  return rotated;
}
