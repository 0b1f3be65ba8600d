import { type Database, GroupCommit, type StatementCall } from '@bookie/storage';

/** One statement on its own: its rows once committed. */
export type StatementRunner = (
  text: string,
  params: readonly unknown[],
) => Promise<Record<string, unknown>[]>;

/** Options of {@link groupedStatements}. */
export interface GroupedStatementsOptions {
  /** Runs one statement alone, autocommit ({@link Database.statement}, or through Kysely on PGlite). */
  single: StatementRunner;
  /** Runs several statements as one transaction, committed once ({@link Database.statements}). */
  batch: NonNullable<Database['statements']>;
  /** Most statements in one transaction (default 64). */
  maxBatch?: number;
  /** Transactions in flight at once (default 2: the next one is sent while the one before commits). */
  maxConcurrent?: number;
  /** Called with the size of each transaction run, alone or grouped (for tests and measures). */
  onFlush?: (size: number) => void;
}

/**
 * Group commit of the callbacks' statements: the statements that arrive together (in one turn of the event loop,
 * or while a transaction runs) run as their own statements, in arrival order, inside one transaction committed
 * once, and each caller gets its own rows only after that commit; one statement alone runs alone (autocommit). So
 * a statement resolves exactly when it would have alone: committed, never before.
 *
 * When a grouped transaction fails (one statement breaks a rule, a deadlock, a lost connection), nothing of it is
 * kept and each statement runs again alone, so only the statement that fails alone fails. A statement that runs
 * again must be safe to repeat after a commit whose answer was lost: the callbacks' statements are, as each
 * claims its request id (a repeat finds the claim and answers the stored answer).
 *
 * Within a transaction a statement sees the writes of the statements before it, as it would have seen them
 * committed had they run alone before it: a repeated request id replays the answer stored by the statement before
 * it, and two callbacks of one account see each other's movements.
 */
export function groupedStatements(options: GroupedStatementsOptions): StatementRunner {
  const { single, batch, onFlush } = options;
  const commits = new GroupCommit<StatementCall, Record<string, unknown>[]>(
    async (calls) => {
      onFlush?.(calls.length);
      if (calls.length === 1) {
        const [only] = calls as [StatementCall];
        return [await single(only.text, only.params)];
      }
      return batch(calls);
    },
    { maxBatch: options.maxBatch ?? 64, maxConcurrent: options.maxConcurrent ?? 2 },
  );
  return (text, params) => commits.submit({ text, params });
}
