import type { IdempotencyOutcome, IdempotencyStore, StoredAnswer } from './idempotency.js';

/**
 * The minimal database access the SQL idempotency store needs; Postgres syntax (`$1` placeholders), so it runs on
 * `pg`, PGlite or anything speaking Postgres. {@link kyselyRunner} (in `./kysely-runner.ts`) builds one from a Kysely
 * instance; with a bare `pg.Pool` it is a few lines (BEGIN/COMMIT on one client).
 */
export interface SqlRunner<Tx> {
  /** Runs `fn` in one transaction (READ COMMITTED or stricter): commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs one parameterised statement inside `tx` and returns its rows. */
  query(tx: Tx, text: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

/** Options of {@link SqlIdempotencyStore}. */
export interface SqlIdempotencyStoreOptions {
  /** Table of stored answers (default `callback_requests`); `name` or `schema.name`, lower-case identifiers. */
  table?: string;
}

const IDENT = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/;

function checkTable(table: string): string {
  if (!IDENT.test(table)) throw new RangeError(`invalid table name: ${table}`);
  return table;
}

/**
 * The DDL of the stored-answers table (Postgres 15 compatible, one statement per element): put it in a migration,
 * or call {@link SqlIdempotencyStore.ensureSchema}.
 */
export function idempotencyTableDdl(table = 'callback_requests'): string[] {
  const t = checkTable(table);
  return [
    `CREATE TABLE IF NOT EXISTS ${t} (
      request_id text PRIMARY KEY,
      fingerprint text NOT NULL,
      status integer,
      content_type text,
      body text,
      created_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz
    )`,
  ];
}

/**
 * An {@link IdempotencyStore} in a SQL table (DECISIONS D7). One database transaction holds the claim (an `INSERT …
 * ON CONFLICT DO NOTHING` of the `request_id`), the handler's own writes (it gets the same `tx`) and the stored
 * answer; so an effect and its answer commit together or not at all, and a throw rolls back both (the claim is
 * released). A concurrent duplicate blocks on the unique key until the first transaction ends, then replays it.
 * Works on Postgres and on PGlite (where the dialect serialises transactions anyway).
 */
export class SqlIdempotencyStore<Tx> implements IdempotencyStore<Tx> {
  readonly #runner: SqlRunner<Tx>;
  readonly #table: string;

  constructor(runner: SqlRunner<Tx>, options: SqlIdempotencyStoreOptions = {}) {
    this.#runner = runner;
    this.#table = checkTable(options.table ?? 'callback_requests');
  }

  /** Creates the table if missing (for setups without migrations). */
  async ensureSchema(): Promise<void> {
    await this.#runner.transaction(async (tx) => {
      for (const s of idempotencyTableDdl(this.#table)) await this.#runner.query(tx, s, []);
    });
  }

  /** The stored answer of `key`, if any (outside any transaction). */
  async get(key: string): Promise<StoredAnswer | undefined> {
    return this.#runner.transaction(async (tx) => {
      const rows = await this.#runner.query(
        tx,
        `SELECT status, content_type, body FROM ${this.#table} WHERE request_id = $1 AND status IS NOT NULL`,
        [key],
      );
      const row = rows[0];
      return row ? toAnswer(row) : undefined;
    });
  }

  execute(
    key: string,
    fingerprint: string,
    apply: (tx: Tx) => Promise<StoredAnswer>,
  ): Promise<IdempotencyOutcome> {
    const r = this.#runner;
    const t = this.#table;
    return r.transaction(async (tx): Promise<IdempotencyOutcome> => {
      const claimed = await r.query(
        tx,
        `INSERT INTO ${t} (request_id, fingerprint) VALUES ($1, $2) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
        [key, fingerprint],
      );
      if (claimed.length === 0) {
        const rows = await r.query(
          tx,
          `SELECT fingerprint, status, content_type, body FROM ${t} WHERE request_id = $1`,
          [key],
        );
        const row = rows[0];
        // The claim, the effect and the answer commit in one transaction, so a visible row is always answered.
        if (!row || row.status === null) throw new Error(`idempotency: ${key} claimed but not answered`);
        if (row.fingerprint !== fingerprint) return { kind: 'conflict' };
        return { kind: 'replayed', answer: toAnswer(row) };
      }
      const answer = await apply(tx);
      await r.query(
        tx,
        `UPDATE ${t} SET status = $2, content_type = $3, body = $4, answered_at = now() WHERE request_id = $1`,
        [key, answer.status, answer.contentType, answer.body],
      );
      return { kind: 'applied', answer };
    });
  }
}

function toAnswer(row: Record<string, unknown>): StoredAnswer {
  return {
    status: Number(row.status),
    contentType: String(row.content_type ?? ''),
    body: String(row.body ?? ''),
  };
}
