import type { FrameDeps } from './deps.js';
import { touchSessions } from './frame.repo.js';

/**
 * Remembers which frame sessions are in use, for heartbeats (D47): a session's `last_seen_at` is written when the
 * frame calls the frame API (or holds its stream open) and the last write is older than half a heartbeat
 * interval, so a busy frame costs one small write per half interval.
 */
export class SessionActivity {
  private readonly written = new Map<string, number>();

  constructor(private readonly deps: Pick<FrameDeps, 'database' | 'clock' | 'logger' | 'settings'>) {}

  /** The frame used session `sessionId` now. Never throws; a failed write is logged and retried next time. */
  seen(sessionId: string | undefined): void {
    const intervalS = this.deps.settings.heartbeatIntervalS;
    if (!sessionId || intervalS === 0) return;
    const now = this.deps.clock.now();
    const last = this.written.get(sessionId);
    if (last !== undefined && now - last < (intervalS * 1000) / 2) return;
    this.written.set(sessionId, now);
    if (this.written.size > 100_000) this.forgetOlderThan(now - intervalS * 2000);
    touchSessions(this.deps.database.db, [sessionId], new Date(now)).catch((err) => {
      this.written.delete(sessionId);
      this.deps.logger.warn({ err, sessionId }, 'could not record frame session activity');
    });
  }

  private forgetOlderThan(t: number): void {
    for (const [id, at] of this.written) if (at < t) this.written.delete(id);
  }
}
