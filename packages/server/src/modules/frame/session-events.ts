import { EventEmitter } from 'node:events';

/**
 * Session ends seen by this process (a heartbeat answered 404 or `auth_credentials_expired`, D47), for the frame
 * streams of those sessions: the frame is told at once and asks its host for a new token.
 */
export class SessionEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Calls `fn` when session `sessionId` ends; returns the unsubscribe. */
  onEnded(sessionId: string, fn: (reason: string) => void): () => void {
    this.emitter.on(sessionId, fn);
    return () => this.emitter.off(sessionId, fn);
  }

  /** Announces that session `sessionId` ended. */
  ended(sessionId: string, reason: string): void {
    this.emitter.emit(sessionId, reason);
  }
}
