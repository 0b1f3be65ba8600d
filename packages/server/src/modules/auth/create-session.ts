import { CreateSessionBody } from '@bookie/contracts';
import { validationError } from '@bookie/core';
import type { PlatformServices } from '../../platform/services.js';
import { checkSchema, getWhiteLabel, hashSecret, newId, PREFIX, randomToken } from '../tenants/index.js';
import { deleteExpiredSessions, insertSession } from './auth.repo.js';

/** Largest `params` (sent back as the Foreign-Params header, D7), serialised, in bytes. */
export const MAX_PARAMS_BYTES = 4096;

/**
 * Creates a player session token (DECISIONS D26) for the calling white label: a random opaque token,
 * stored as its SHA-256 with the player, currency, locale, params and context. An empty `player_id` makes a
 * read-only viewer. The token lives `config.auth.sessionTokenTtlS` seconds unless ended before.
 *
 * @throws DomainError validation_error naming the field (e.g. `currency` not one of the white label's).
 */
export async function createSession(
  deps: Pick<PlatformServices, 'database' | 'clock' | 'config'>,
  input: { whiteLabelId: string; body: CreateSessionBody },
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const body = input.body;
  checkSchema(CreateSessionBody, body);
  const wl = await getWhiteLabel(deps, input.whiteLabelId);
  if (!wl.currencies.includes(body.currency)) {
    throw validationError(
      'currency',
      `must be one of the white label's currencies (${wl.currencies.join(', ')})`,
    );
  }
  const params = JSON.stringify(body.params ?? {});
  if (Buffer.byteLength(params) > MAX_PARAMS_BYTES) {
    throw validationError('params', `must serialise to at most ${MAX_PARAMS_BYTES} bytes`);
  }
  const context = JSON.stringify(body.context ?? {});
  const now = deps.clock.now();
  const token = randomToken(PREFIX.sessionToken);
  const sessionId = newId();
  const expiresAt = new Date(now + deps.config.auth.sessionTokenTtlS * 1000);
  await deleteExpiredSessions(deps.database.db, wl.id, new Date(now - 86_400_000));
  await insertSession(deps.database.db, {
    id: sessionId,
    token_hash: hashSecret(token),
    white_label_id: wl.id,
    player_id: body.player_id,
    currency: body.currency,
    locale: body.locale,
    params,
    context,
    created_at: new Date(now),
    expires_at: expiresAt,
  });
  return { token, sessionId, expiresAt };
}
