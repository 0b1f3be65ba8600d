import { GroupCommit } from '@bookie/storage';
import { inTransaction } from '../../db/transaction.js';
import { type PlayerEvents, sendLastBetTimes } from '../bets/index.js';
import { type RiskFacts, type RiskFactsKey, sendRiskFactsOfMany } from '../risk/index.js';
import type { DecisionDeps } from './deps.js';

/** What one decision reads before it is taken: its risk facts (with the risk engine on) and the player's last bets. */
export interface FactsKey {
  /** The bet's outcomes and player, for the risk facts; undefined when the risk engine is off. */
  risk: RiskFactsKey | undefined;
  /** The player and the bet's sport events, for `bet_interval`. */
  lastBets: PlayerEvents;
}

/** The answer of {@link readFactsBatched}. */
export interface FactsRead {
  risk: RiskFacts | undefined;
  /** When the player last had a bet accepted on each of the bet's sport events. */
  lastBets: Map<string, Date>;
}

/** The database the facts are read from. */
type Db = DecisionDeps['database']['db'];

const readers = new WeakMap<Db, GroupCommit<FactsKey, FactsRead>>();

/**
 * A decision's facts (its outcomes' exposure, the player's group and last bets), read together with those of the
 * decisions arriving at the same moment: the risk facts of the group in one statement and its last bets in another,
 * both sent on one connection in one write (with a transaction's `BEGIN` and `COMMIT`, which pipelining sends with
 * them): one round trip to one backend per group of requests instead of one to each of two. Always reads the
 * database (the exposure a decision sees is never older than its request).
 */
export function readFactsBatched(deps: Pick<DecisionDeps, 'database'>, key: FactsKey): Promise<FactsRead> {
  const db = deps.database.db;
  let reader = readers.get(db);
  if (!reader) {
    reader = new GroupCommit((items) => readFacts(db, items), { maxConcurrent: 4 });
    readers.set(db, reader);
  }
  return reader.submit(key);
}

async function readFacts(db: Db, items: readonly FactsKey[]): Promise<FactsRead[]> {
  const risky: RiskFactsKey[] = [];
  for (const it of items) if (it.risk) risky.push(it.risk);
  // both reads are sent before either answer is waited for, and the commit behind them
  const sent = await inTransaction(db, async (tx) => {
    const risk = await sendRiskFactsOfMany(tx, risky);
    const last = await sendLastBetTimes(
      tx,
      items.map((it) => it.lastBets),
    );
    return { risk: risk.facts, last: last.times };
  });
  const [riskFacts, times] = await Promise.all([sent.risk, sent.last]);
  let r = 0;
  return items.map((it, i) => ({
    risk: it.risk ? riskFacts[r++] : undefined,
    lastBets: times[i] as Map<string, Date>,
  }));
}
