import { DomainError } from '@bookie/core';
import { GroupCommit } from '@bookie/storage';
import type { PlayerSession } from '../../http/auth.js';
import type { PlatformServices } from '../../platform/services.js';
import { hashSecret, PREFIX } from '../tenants/index.js';
import { findSession, findSessions, type SessionAuthRow } from './auth.repo.js';

function invalidToken(message: string): DomainError {
  return new DomainError('unauthorized', message, { error: 'invalid_token' });
}

/** Finds a session by its token hash. */
export type SessionLookup = (tokenHash: string) => Promise<SessionAuthRow | undefined>;

/**
 * A {@link SessionLookup} that reads the sessions of the requests arriving together in one statement (a player
 * route's only database read before its own work; docs/adr/0012-placement-group-commit.md). Always reads the
 * database: an ended session is refused on the next request, as D26 asks.
 */
export function batchedSessionLookup(deps: Pick<PlatformServices, 'database'>): SessionLookup {
  const reads = new GroupCommit<string, SessionAuthRow | undefined>(
    (hashes) => findSessions(deps.database.db, hashes),
    {
      maxConcurrent: 4,
    },
  );
  return (tokenHash) => reads.submit(tokenHash);
}

/**
 * Resolves a player session token (DECISIONS D26). Only session tokens are accepted: a partner access token
 * is refused. Ended and expired sessions are refused.
 *
 * @throws DomainError unauthorized (`details.error = "invalid_token"`).
 */
export async function authenticatePlayer(
  deps: Pick<PlatformServices, 'database' | 'clock'> & { lookup?: SessionLookup },
  input: { token: string },
): Promise<PlayerSession> {
  const hash = hashSecret(input.token);
  const row = await (deps.lookup ? deps.lookup(hash) : findSession(deps.database.db, hash));
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
