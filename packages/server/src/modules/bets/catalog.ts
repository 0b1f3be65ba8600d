import type { SportEvent } from '@bookie/contracts';

/**
 * The platform's live view of the book (ARCHITECTURE "The one log"): the in-process FeedReplica, read by
 * placement. `connected` is false while the replica is not following the log; no bet is accepted then.
 */
export interface Catalog {
  readonly connected: boolean;
  getEvent(id: string): SportEvent | undefined;
  allEvents(): IterableIterator<SportEvent>;
}
