import { randomUUID } from 'node:crypto';
import { CALLBACK_PATHS, UNSUPPORTED_CALLBACK_STATUSES } from '@bookie/contracts';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { type LeaderLease, runWhileLeader } from '../../platform/leadership/leader-lease.js';
import { answerEndsSession } from '../auth/index.js';
import { learnUnsupportedNow, listWhiteLabels, supportsCallback, toWhiteLabel } from '../tenants/index.js';
import type { FrameDeps } from './deps.js';
import { claimHeartbeats, endSessionById } from './frame.repo.js';

/** What one round of heartbeats did. */
export interface HeartbeatRound {
  sent: number;
  failed: number;
  /** Sessions ended because the partner said so: 404, or `auth_session_unknown` / `auth_credentials_expired`. */
  ended: string[];
}

/**
 * True when the partner's heartbeat answer ends the session (the sessions rule): 404 (the partner announced
 * heartbeats, so a 404 says it does not know the session), or an error answer whose code is `auth_session_unknown` or
 * `auth_credentials_expired`. Nothing else does: 405/501 (heartbeat not implemented), 5xx, other codes, timeouts.
 */
export function endsSession(status: number | null, body: string | null): boolean {
  return status === 404 || (status !== null && status >= 400 && answerEndsSession(body));
}

/**
 * One round of heartbeats (DECISIONS D13, D47; the sessions rule): `POST {callback}/heartbeat` with an empty body and
 * the session's `Foreign-Params`, once per frame session used in the last two intervals, outside the outbox and never
 * retried — only to white labels that announced heartbeats (and did not answer them 405/501 since). A 404 or an
 * `auth_session_unknown` / `auth_credentials_expired` answer ends the session and tells its open frame streams at
 * once; a 405 or 501 teaches Bookie that the white label has no heartbeat (audited) and ends nothing.
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
    const whiteLabelIds = (await listWhiteLabels(tx))
      .map(toWhiteLabel)
      .filter((wl) => supportsCallback(wl, 'heartbeat'))
      .map((wl) => wl.id);
    if (whiteLabelIds.length === 0) return [];
    return claimHeartbeats(
      tx,
      whiteLabelIds,
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
        {
          requestId: randomUUID(),
          path: CALLBACK_PATHS.heartbeat,
          body: '',
          foreignParams: JSON.stringify(s.params),
        },
        Math.min(intervalMs, 5000),
      );
      if (res.ok) {
        round.sent++;
        return;
      }
      round.failed++;
      if (res.status !== null && res.status !== 404 && UNSUPPORTED_CALLBACK_STATUSES.has(res.status)) {
        // 405 or 501: the partner has no heartbeat after all; it ends no session
        await learnUnsupportedNow(deps.database.db, {
          whiteLabelId: s.white_label_id,
          callback: 'heartbeat',
          status: res.status,
          at: new Date(deps.clock.now()),
        }).catch((err) => deps.logger.error({ err }, 'recording an unsupported heartbeat failed'));
        return;
      }
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
