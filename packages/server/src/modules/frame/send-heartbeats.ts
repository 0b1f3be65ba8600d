import { randomUUID } from 'node:crypto';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { type LeaderLease, runWhileLeader } from '../leadership/leader-lease.js';
import type { FrameDeps } from './deps.js';
import { claimHeartbeats, endSessionById } from './frame.repo.js';

/** What one round of heartbeats did. */
export interface HeartbeatRound {
  sent: number;
  failed: number;
  /** Sessions ended because the partner answered 404 or `auth_credentials_expired`. */
  ended: string[];
}

/** True when the partner's heartbeat answer ends the session (D47): 404, or an `auth_credentials_expired` error. */
export function endsSession(status: number | null, body: string | null): boolean {
  return status === 404 || (body ?? '').includes('auth_credentials_expired');
}

/**
 * One round of heartbeats (DECISIONS D13, D47): `POST {callback}/heartbeat` with an empty body and the session's
 * `Foreign-Params`, once per frame session used in the last two intervals, outside the outbox and never retried.
 * A 404 or an `auth_credentials_expired` answer ends the session and tells its open frame streams at once.
 * With several processes only the leader of the `heartbeats` role sends them; `fence` (its lease check) runs in
 * the claiming transaction.
 */
export async function sendHeartbeats(
  deps: FrameDeps,
  batch = 500,
  fence: (tx: Executor) => Promise<void> = async () => {},
): Promise<HeartbeatRound> {
  const intervalMs = deps.settings.heartbeatIntervalS * 1000;
  const round: HeartbeatRound = { sent: 0, failed: 0, ended: [] };
  if (intervalMs === 0) return round;
  const now = deps.clock.now();
  const due = await inTransaction(deps.database.db, async (tx) => {
    await fence(tx);
    return claimHeartbeats(
      tx,
      new Date(now),
      new Date(now - 2 * intervalMs),
      // a little early, so that a round that started late does not skip a session
      new Date(now - intervalMs * 0.8),
      batch,
    );
  });
  await Promise.all(
    due.map(async (s) => {
      let target: Awaited<ReturnType<FrameDeps['targets']['get']>>;
      try {
        target = await deps.targets.get(s.white_label_id);
      } catch {
        round.failed++; // no callback server announced yet
        return;
      }
      const res = await deps.sender.send(
        target,
        { requestId: randomUUID(), path: '/heartbeat', body: '', foreignParams: JSON.stringify(s.params) },
        Math.min(intervalMs, 5000),
      );
      if (res.ok) {
        round.sent++;
        return;
      }
      round.failed++;
      if (endsSession(res.status, res.body)) {
        if (await endSessionById(deps.database.db, s.id, new Date(deps.clock.now()))) round.ended.push(s.id);
        deps.sessionEvents.ended(s.id, 'heartbeat');
      }
    }),
  );
  return round;
}

/**
 * Runs {@link sendHeartbeats} every interval until the returned stop is called; with `lease`, only while this
 * process leads the `heartbeats` role.
 */
export function startHeartbeats(deps: FrameDeps, lease?: LeaderLease): () => Promise<void> {
  const intervalMs = deps.settings.heartbeatIntervalS * 1000;
  if (intervalMs === 0) return async () => {};
  if (lease) {
    return runWhileLeader(
      lease,
      intervalMs,
      (fence) => sendHeartbeats(deps, 500, fence),
      (err) => deps.logger.error({ err }, 'heartbeat round failed'),
    );
  }
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sendHeartbeats(deps)
      .catch((err) => deps.logger.error({ err }, 'heartbeat round failed'))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
