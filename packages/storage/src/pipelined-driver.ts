import type { Writable } from 'node:stream';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import type { Executor } from './transaction.js';

/**
 * The statements {@link sendWrite} and {@link sendQuery} send without waiting inside a transaction, each with what takes
 * its answer.
 */
const SENT = new WeakMap<CompiledQuery, (answer: Promise<pg.QueryResult>) => void>();

/** The answer of a {@link sendWrite}: nobody reads it (its failure is kept by the connection for the transaction). */
const UNREAD = (answer: Promise<unknown>): void => {
  answer.catch(() => {});
};

/**
 * Runs a write whose answer its caller does not need (an `INSERT`/`UPDATE` without `RETURNING`, whose count is not
 * read), as part of the transaction `tx`.
 *
 * Inside a transaction on Postgres the statement is written to the transaction's connection and the promise resolves
 * without waiting for Postgres's answer: the statements that follow it (in order, on the same connection) and the
 * `COMMIT` go out behind it, so a transaction's writes and its commit cost one round trip together instead of one
 * each. A failure of the statement is not lost: the next statement of the transaction that waits for its answer, or
 * the commit, rejects with this statement's own error (the transaction is then rolled back whole, as when the write
 * had been awaited). Outside a transaction, with pipelining off (`pipeline: false`) and on PGlite, the statement runs
 * and is waited for, as `tx.executeQuery` would: the same rows are written in the same order on both engines; only
 * where its error surfaces differs.
 */
export async function sendWrite<DB>(tx: Executor<DB>, query: CompiledQuery): Promise<void> {
  SENT.set(query, UNREAD);
  await tx.executeQuery(query);
}

/**
 * Sends a statement whose rows its caller reads later, as part of the transaction `tx`, and resolves to its rows'
 * promise (mapped by `map`, when given): `const last = await sendQuery(tx, q); …other statements…; const rows = await
 * last.rows`. A caller that fails before reading them leaves them unread without an unhandled rejection.
 *
 * Inside a transaction on Postgres the statement is written to the transaction's connection without waiting (as
 * {@link sendWrite}), so it shares the round trip of the statements sent after it; `rows` resolves when Postgres
 * answers it. When it fails, `rows` rejects with its error, and so do the transaction's next waited statement and its
 * commit. Outside a transaction, with pipelining off (`pipeline: false`) and on PGlite, the statement runs and is
 * waited for before the call resolves.
 */
export async function sendQuery<R, T = R[]>(
  // biome-ignore lint/suspicious/noExplicitAny: any schema (the rows' type is the caller's)
  tx: Executor<any>,
  query: CompiledQuery,
  map: (rows: R[]) => T = (rows) => rows as T,
): Promise<{ rows: Promise<T> }> {
  let rows: Promise<T> | undefined;
  SENT.set(query, (answer) => {
    rows = answer.then((r) => map(r.rows as R[]));
  });
  const result = await tx.executeQuery<R>(query);
  rows ??= Promise.resolve().then(() => map(result.rows as R[]));
  rows.catch(() => {});
  return { rows };
}

/** The socket of a pg client (`cork`/`uncork` hold and release its writes), when it has one. */
export function socketOf(client: pg.Client): Partial<Writable> | undefined {
  return (client as unknown as { connection?: { stream?: Partial<Writable> } }).connection?.stream;
}

/** An answer that was not waited for: no rows (the caller reads none). */
const NOT_WAITED: QueryResult<never> = Object.freeze({ rows: [] as never[] });

/** The `SQLSTATE` of a statement run after an earlier one failed in the same transaction. */
const IN_FAILED_TRANSACTION = '25P02';

/**
 * One pooled client of {@link PipelinedPostgresDialect}, in pg's pipeline mode: a statement is written as soon as it
 * is queued, so statements queued before the answer of the previous one share its round trip.
 */
class PipelinedConnection implements DatabaseConnection {
  /** In a transaction: between `beginTransaction` and its commit or rollback. */
  private inTransaction = false;
  /** The statements of the transaction written without waiting (its `BEGIN`, {@link sendWrite}, {@link sendQuery}). */
  private sent: Promise<unknown>[] = [];
  /** The first of those that failed, with its own error. */
  private failed: { error: unknown } | undefined;
  private corked = false;
  private uncorkScheduled = false;
  /**
   * The connection was lost (its client's `error` event, or a rollback that failed): the client is discarded at its
   * release rather than given to the next caller.
   */
  broken = false;
  /** pg's pipeline mode is on: without it (`pipeline: false`) every statement is waited for, as by Kysely's driver. */
  private readonly pipelined: boolean;

  constructor(readonly client: pg.PoolClient) {
    this.pipelined = (client as unknown as { pipeline?: boolean }).pipeline === true;
    // a connection lost while the client is checked out fails its statements; the error event that follows must not
    // end the process (the pool listens only while the client is idle): the client is discarded at its release
    client.on('error', () => {
      this.broken = true;
    });
  }

  private get socket(): Partial<Writable> | undefined {
    return socketOf(this.client);
  }

  /** Holds the connection's writes in memory until {@link flush}, so the statements queued meanwhile go in one write. */
  private cork(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket?.cork?.();
    // a caller that goes on to wait for something else still gets its statements sent
    if (!this.uncorkScheduled) {
      this.uncorkScheduled = true;
      setImmediate(() => {
        this.uncorkScheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    if (!this.corked) return;
    this.corked = false;
    this.socket?.uncork?.();
  }

  /**
   * Queues `sql` without waiting for its answer. Its failure is kept for the statement that next waits and for the
   * commit; its answer rejects with the transaction's first failure (its own error, or that of an earlier statement
   * that aborted the transaction).
   */
  private send(sql: string, parameters: readonly unknown[]): Promise<pg.QueryResult> {
    this.cork();
    const answer = this.client.query(sql, parameters as unknown[]).catch((error: unknown) => {
      // statements are answered in order: the first failure recorded is the one that aborted the transaction
      this.failed ??= { error };
      throw this.failed.error;
    });
    this.sent.push(answer.catch(() => {}));
    return answer;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const receiver = this.inTransaction && this.pipelined ? SENT.get(query) : undefined;
    if (receiver !== undefined) {
      receiver(this.send(query.sql, query.parameters));
      return NOT_WAITED as QueryResult<R>;
    }
    const answer = this.client.query(query.sql, query.parameters as unknown[]);
    this.flush();
    try {
      const { command, rowCount, rows } = await answer;
      return {
        numAffectedRows:
          command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
            ? BigInt(rowCount ?? 0)
            : undefined,
        rows: (rows ?? []) as R[],
      };
    } catch (error) {
      // an earlier write sent without waiting made the transaction fail: its error is the one to report
      if ((error as { code?: string }).code === IN_FAILED_TRANSACTION) {
        await Promise.all(this.sent);
        if (this.failed) throw this.failed.error;
      }
      throw error;
    }
  }

  // biome-ignore lint/correctness/useYield: streaming is refused, as pg's pipeline mode refuses cursors
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on a pipelined connection');
  }

  /** `BEGIN`, sent with the transaction's first statement rather than on a round trip of its own (waited for with pipelining off). */
  async begin(settings: TransactionSettings): Promise<void> {
    let sql = 'BEGIN';
    if (settings.isolationLevel || settings.accessMode) {
      sql = 'START TRANSACTION';
      if (settings.isolationLevel) sql += ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}`;
      if (settings.accessMode) sql += ` ${settings.accessMode.toUpperCase()}`;
    }
    this.inTransaction = true;
    this.failed = undefined;
    this.sent = [];
    if (this.pipelined) UNREAD(this.send(sql, []));
    else await this.client.query(sql);
  }

  /**
   * Sends `COMMIT` behind the statements not waited for, and resolves once all are answered and the commit is
   * durable. Rejects with the first failed statement's error (Postgres then answers the `COMMIT` with a rollback).
   */
  async commit(): Promise<void> {
    const result = await this.finish('COMMIT');
    if (this.failed) throw this.failed.error;
    if (result.command !== 'COMMIT') throw new Error(`the transaction was not committed (${result.command})`);
  }

  /**
   * Sends `ROLLBACK` and resolves once every statement of the transaction is answered. A rollback that fails (the
   * connection is lost, so the transaction is over anyway) does not hide the error that caused it: the connection is
   * marked to be discarded instead of returned to the pool.
   */
  async rollback(): Promise<void> {
    try {
      await this.finish('ROLLBACK');
    } catch {
      this.broken = true;
    }
  }

  /** Ends the transaction with `sql`, sent behind its statements not waited for; resolves, once all are answered, to its answer. */
  private async finish(sql: 'COMMIT' | 'ROLLBACK'): Promise<pg.QueryResult> {
    const answer = this.client.query(sql);
    // handled now: a lost connection rejects it while the statements before it are still being waited for
    answer.catch(() => {});
    this.flush();
    const sent = this.sent;
    this.inTransaction = false;
    this.sent = [];
    await Promise.all(sent);
    return answer;
  }
}

/**
 * Kysely's driver for `pg` with pipelined pool clients: the pool's clients run in pg's pipeline mode (pg ≥ 8.23), a
 * transaction's `BEGIN` goes out with its first statement, and the statements of {@link sendWrite} and
 * {@link sendQuery} go out without waiting, with the statements after them and the `COMMIT`. Every other statement is sent and waited for as
 * with Kysely's own driver; cursors (`.stream()`) are refused.
 */
class PipelinedPostgresDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, PipelinedConnection>();
  private destroyed = false;

  constructor(private readonly pool: pg.Pool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    if (this.destroyed) {
      client.release();
      throw new Error('the database is closed');
    }
    let connection = this.connections.get(client);
    if (!connection) {
      connection = new PipelinedConnection(client);
      this.connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (connection as PipelinedConnection).begin(settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as PipelinedConnection;
    if (c.broken) this.connections.delete(c.client);
    c.client.release(c.broken ? true : undefined);
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await this.pool.end();
  }
}

/** Kysely's Postgres dialect over {@link PipelinedPostgresDriver}: its compiler, adapter and introspector. */
export class PipelinedPostgresDialect extends PostgresDialect {
  constructor(private readonly pipelinedPool: pg.Pool) {
    super({ pool: pipelinedPool });
  }

  override createDriver(): Driver {
    return new PipelinedPostgresDriver(this.pipelinedPool);
  }
}
