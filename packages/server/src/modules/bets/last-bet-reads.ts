import { GroupCommit } from '@bookie/storage';
import type { Executor } from '../../db/transaction.js';
import { lastBetTimes, type PlayerEvents } from './bets.repo.js';

const readers = new WeakMap<Executor, GroupCommit<PlayerEvents, Map<string, Date>>>();

/**
 * When the player last had a bet accepted on each of the sport events (`bet_interval`), read together with those of
 * the decisions arriving at the same moment on the same database: one statement per group of requests instead of
 * one per decision. Always reads the database.
 */
export function lastBetTimesBatched(db: Executor, item: PlayerEvents): Promise<Map<string, Date>> {
  let reader = readers.get(db);
  if (!reader) {
    reader = new GroupCommit((items) => lastBetTimes(db, items), { maxConcurrent: 4 });
    readers.set(db, reader);
  }
  return reader.submit(item);
}
