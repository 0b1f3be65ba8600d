import { DomainError } from '@bookie/core';
import type { AppDeps } from '../../app/wiring.js';
import type { PlayerSession } from '../../http/auth.js';
import { hashSecret, PREFIX } from '../tenants/secrets.js';
import { findSession } from './auth.repo.js';

function invalidToken(message: string): DomainError {
  return new DomainError('unauthorized', message, { error: 'invalid_token' });
}

/**
 * Resolves a player session token (DECISIONS D26). Only session tokens are accepted: a partner access token
 * is refused. Ended and expired sessions are refused.
 *
 * @throws DomainError unauthorized (`details.error = "invalid_token"`).
 */
export async function authenticatePlayer(
  deps: Pick<AppDeps, 'database' | 'clock'>,
  input: { token: string },
): Promise<PlayerSession> {
  const row = await findSession(deps.database.db, hashSecret(input.token));
  if (!row) {
    throw invalidToken(
      input.token.startsWith(PREFIX.accessToken)
        ? 'a partner access token is not accepted here; use a session token'
        : 'unknown session token',
    );
  }
  if (row.ended_at !== null) throw invalidToken('session ended');
  if (new Date(row.expires_at).getTime() <= deps.clock.now()) throw invalidToken('session expired');
  return {
    token: input.token,
    sessionId: row.id,
    whiteLabelId: row.white_label_id,
    playerId: row.player_id,
    currency: row.currency,
    locale: row.locale,
    params: row.params,
    context: row.context,
  };
}
