import type { SportEvent } from '@bookie/contracts';

/**
 * The platform's live view of the book (ARCHITECTURE "The one log"): the in-process FeedReplica, read by
 * placement. `connected` is false while the replica is not following the log; no bet is accepted then.
 */
export interface Catalog {
  readonly connected: boolean;
  getEvent(id: string): SportEvent | undefined;
  /**
   * The feed version of the last log entry applied (or of the last full load): every change to an event moves it, so
   * an equal version means no event changed. Undefined when not known (then never taken as unchanged).
   */
  readonly version?: bigint | undefined;
  allEvents(): IterableIterator<SportEvent>;
}
