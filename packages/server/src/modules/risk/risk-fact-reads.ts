import { GroupCommit } from '@bookie/storage';
import type { Executor } from '../../db/transaction.js';
import { type RiskFacts, type RiskFactsKey, readRiskFactsOfMany } from './exposure.repo.js';

const readers = new WeakMap<Executor, GroupCommit<RiskFactsKey, RiskFacts>>();

/**
 * A bet's risk facts (its outcomes' exposure and the player's group), read together with those of the decisions
 * arriving at the same moment on the same database: one statement per group of requests instead of one per
 * decision. Always reads the database (the exposure a decision sees is never older than its request).
 */
export function readRiskFactsBatched(db: Executor, key: RiskFactsKey): Promise<RiskFacts> {
  let reader = readers.get(db);
  if (!reader) {
    reader = new GroupCommit((items) => readRiskFactsOfMany(db, items), { maxConcurrent: 4 });
    readers.set(db, reader);
  }
  return reader.submit(key);
}
