import type { ClaimingStatement, IdempotencyOutcome, IdempotencyStore, StoredAnswer } from './idempotency.js';

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
  /**
   * Optional: runs one parameterised statement on its own (autocommit: no BEGIN/COMMIT around it) and returns its
   * rows. Without it, {@link SqlIdempotencyStore.executeStatement} wraps each statement in `transaction`. It may
   * also run the statement inside a transaction shared with other requests' statements (group commit), provided it
   * resolves only once that transaction committed and another statement's failure does not fail this one (run it
   * again alone): a claiming statement is safe to run again, as a repeat finds its claim and replays.
   */
  statement?(text: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
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
 * An {@link IdempotencyStore} in a SQL table (the callback requests rule). One database transaction holds the claim (an `INSERT …
 * ON CONFLICT DO NOTHING` of the `request_id`), the handler's own writes (it gets the same `tx`) and the stored
 * answer; so an effect and its answer commit together or not at all, and a throw rolls back both (the claim is
 * released). A concurrent duplicate blocks on the unique key until the first transaction ends, then replays it.
 * Works on Postgres and on PGlite (where the dialect serialises transactions anyway).
 */
export class SqlIdempotencyStore<Tx> implements IdempotencyStore<Tx> {
  readonly #runner: SqlRunner<Tx>;
  readonly #table: string;
  /** The texts of the statements run so far, by their `decide` part (built once per distinct set of parts). */
  readonly #texts = new Map<string, Array<{ statement: ClaimingStatement; text: string }>>();
  #textCount = 0;

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
        if (!row) throw new Error(`idempotency: ${key} claimed but not found`);
        return storedOutcome(key, fingerprint, row);
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

  /**
   * Runs a callback as one {@link ClaimingStatement} (see {@link IdempotencyStore.executeStatement}): one round trip
   * for a first delivery answered 204 and for a replay, two for a stored refusal (the statement, then the answer with
   * its claim). A concurrent duplicate waits on the claim's unique key (or on the rows the statement locks) until
   * the first delivery commits, finds its claim taken and replays the stored answer.
   */
  async executeStatement(
    key: string,
    fingerprint: string,
    statement: ClaimingStatement,
    answer: (row: Record<string, unknown>) => StoredAnswer,
  ): Promise<IdempotencyOutcome> {
    const t = this.#table;
    const text = this.#statementText(statement);
    const [row] = await this.#autocommit(text, [key, fingerprint, ...statement.params]);
    if (!row) throw new Error(`idempotency: the statement of ${key} returned no row`);
    if (row.claimed === true) {
      let first: StoredAnswer | undefined;
      try {
        first = answer(row);
      } catch {
        first = undefined;
      }
      // the effect and its 204 committed; an answer that disagrees is a bug of the statement
      if (first?.status !== 204)
        throw new Error(`idempotency: ${key} was claimed with 204 but answers otherwise`);
      return { kind: 'applied', answer: NO_CONTENT };
    }
    const stored = row.stored;
    if (stored !== null && stored !== undefined) {
      // a JSON array (parsed by the driver, or its text): fingerprint, status, content type, body
      const [storedFingerprint, status, contentType, body] = (
        typeof stored === 'string' ? JSON.parse(stored) : stored
      ) as unknown[];
      return storedOutcome(key, fingerprint, {
        fingerprint: storedFingerprint,
        status,
        content_type: contentType,
        body,
      });
    }
    const first = answer(row);
    if (first.status !== 204) {
      const inserted = await this.#autocommit(
        `INSERT INTO ${t} (request_id, fingerprint, status, content_type, body, answered_at)
         VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
        [key, fingerprint, first.status, first.contentType, first.body],
      );
      if (inserted.length > 0) return { kind: 'applied', answer: first };
    }
    // a concurrent delivery of the same request_id committed after this statement's snapshot: replay it
    const [now] = await this.#autocommit(
      `SELECT fingerprint, status, content_type, body FROM ${t} WHERE request_id = $1`,
      [key],
    );
    if (!now) throw new Error(`idempotency: ${key} was neither claimed nor answered`);
    return storedOutcome(key, fingerprint, now);
  }

  /**
   * The whole text of a claiming statement, built once per distinct set of parts (the first
   * {@link MAX_STATEMENT_TEXTS}; past them, built on every call): a builder that returns the same part strings on
   * every call gets the same text object back, which a driver that prepares statements by text finds without
   * reading it whole.
   */
  #statementText(statement: ClaimingStatement): string {
    const same = this.#texts.get(statement.decide);
    if (same) {
      for (const e of same) {
        const s = e.statement;
        if (
          s.claimWhen === statement.claimWhen &&
          s.effects === statement.effects &&
          s.columns === statement.columns
        )
          return e.text;
      }
    }
    const text = claimingStatementText(this.#table, statement);
    if (this.#textCount < MAX_STATEMENT_TEXTS) {
      this.#textCount++;
      const entry = { statement: { ...statement, params: [] }, text };
      if (same) same.push(entry);
      else this.#texts.set(statement.decide, [entry]);
    }
    return text;
  }

  #autocommit(text: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
    const r = this.#runner;
    return r.statement ? r.statement(text, params) : r.transaction((tx) => r.query(tx, text, params));
  }
}

/** Distinct claiming statements whose texts one store keeps. */
const MAX_STATEMENT_TEXTS = 100;

/** The one statement of {@link SqlIdempotencyStore.executeStatement}: the claim of `$1` in `table`, with the statement's parts. */
function claimingStatementText(t: string, statement: ClaimingStatement): string {
  return `WITH ${statement.decide},
  claimed AS (
    INSERT INTO ${t} (request_id, fingerprint, status, content_type, body, answered_at)
    SELECT $1, $2, 204, '', '', now() WHERE ${statement.claimWhen}
    ON CONFLICT (request_id) DO NOTHING
    RETURNING request_id
  )${
    statement.effects.trim() === ''
      ? ''
      : `,
  ${statement.effects}`
  }
SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
  CASE WHEN stored.request_id IS NOT NULL
    THEN json_build_array(stored.fingerprint, stored.status, stored.content_type, stored.body) END AS stored,
  ${statement.columns}
FROM (SELECT 1) AS one LEFT JOIN ${t} AS stored ON stored.request_id = $1`;
}

const NO_CONTENT: StoredAnswer = { status: 204, contentType: '', body: '' };

function storedOutcome(key: string, fingerprint: string, row: Record<string, unknown>): IdempotencyOutcome {
  // the claim, the effect and the answer commit together, so a visible row is always answered
  if (row.status === null || row.status === undefined) {
    throw new Error(`idempotency: ${key} claimed but not answered`);
  }
  if (row.fingerprint !== fingerprint) return { kind: 'conflict' };
  return { kind: 'replayed', answer: toAnswer(row) };
}

function toAnswer(row: Record<string, unknown>): StoredAnswer {
  return {
    status: Number(row.status),
    contentType: String(row.content_type ?? ''),
    body: String(row.body ?? ''),
  };
}
