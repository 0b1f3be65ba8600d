import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.js';

/** Every white label's `allowed_origins` (D49), for the CORS preflight, which carries no token. */
export async function listAllowedOrigins(db: Executor): Promise<string[][]> {
  const rows = await db.selectFrom('white_label').select('allowed_origins').execute();
  return rows.map((r) => r.allowed_origins);
}

/** Records that the frame used these sessions at `at` (D47). */
export async function touchSessions(db: Executor, sessionIds: readonly string[], at: Date): Promise<void> {
  if (sessionIds.length === 0) return;
  await db
    .updateTable('session_token')
    .set({ last_seen_at: at })
    .where('id', 'in', sessionIds)
    .where('ended_at', 'is', null)
    .execute();
}

/** A frame session due for a heartbeat. */
export interface HeartbeatDue {
  id: string;
  white_label_id: string;
  params: Record<string, unknown>;
}

/**
 * Claims the sessions of `whiteLabelIds` due for a heartbeat (D47): not ended, not expired, seen by the frame since
 * `activeSince`, and without a heartbeat since `dueBefore`. The claim (`heartbeat_at = now`) is the statement itself, so two processes
 * never send the same session's heartbeat for one interval.
 */
export async function claimHeartbeats(
  db: Executor,
  whiteLabelIds: readonly string[],
  now: Date,
  activeSince: Date,
  dueBefore: Date,
  limit: number,
): Promise<HeartbeatDue[]> {
  const due = db
    .selectFrom('session_token')
    .select('id')
    .where('white_label_id', 'in', whiteLabelIds)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>=', activeSince)
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<=', dueBefore)]))
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable('session_token')
    .set({ heartbeat_at: now })
    .where('id', 'in', due)
    .returning(['id', 'white_label_id', 'params'])
    .execute() as Promise<HeartbeatDue[]>;
}

/** Ends a session by id (keeps the first end time); true when this call ended it. */
export async function endSessionById(db: Executor, sessionId: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('session_token')
    .set({ ended_at: at })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Whether a session is still usable at `now` (not ended, not expired). */
export async function isSessionOpen(db: Executor, sessionId: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('session_token')
    .select(sql<number>`1`.as('one'))
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}
