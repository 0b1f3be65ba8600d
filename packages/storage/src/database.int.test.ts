import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Runs on PGlite, or on Postgres when DATABASE_URL is set (then through a one-connection pool of its own). */
describe('openDatabase', () => {
  let test: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    test = await createTestDatabase();
    database = test.url ? await openDatabase({ url: test.url, poolSize: 1 }) : test;
    await sql`CREATE TABLE t (id int8 PRIMARY KEY, amount numeric NOT NULL)`.execute(database.db);
  });
  afterAll(async () => {
    if (database !== test) await database.close();
    await test.close();
  });

  const read = (id: bigint) =>
    sql<{ id: bigint; amount: string }>`SELECT id, amount FROM t WHERE id = ${id}`.execute(database.db);

  it('reads int8 as bigint and numeric as the exact string, the same on every run of a statement', async () => {
    await sql`INSERT INTO t (id, amount) VALUES (${9007199254740993n}, ${'0.100000000000000000001'})`.execute(
      database.db,
    );
    for (let run = 0; run < 8; run++) {
      const { rows } = await read(9007199254740993n);
      expect(rows).toEqual([{ id: 9007199254740993n, amount: '0.100000000000000000001' }]);
    }
    const { rows } = await read(1n);
    expect(rows).toEqual([]);
  });

  it('runs without JIT compilation, on the pool and on the pipelined connection', async () => {
    const { rows } = await sql<{ jit: string }>`SHOW jit`.execute(database.db);
    expect(rows).toEqual([{ jit: 'off' }]);
    expect(await database.statements?.([{ text: 'SHOW jit', params: [] }])).toEqual([[{ jit: 'off' }]]);
  });

  it('a prepared statement that failed (a broken constraint, a bad parameter) runs again', async () => {
    const insert = (id: bigint, amount: string) =>
      sql`INSERT INTO t (id, amount) VALUES (${id}, ${amount})`.execute(database.db);
    await insert(1n, '1.5');
    await expect(insert(1n, '2.5')).rejects.toThrow(/duplicate key/);
    await expect(insert(2n, 'not a number')).rejects.toThrow(/invalid input syntax/);
    await insert(2n, '2.5');
    const { rows } = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM t WHERE id IN (${1n}, ${2n})`.execute(database.db);
    expect(rows).toEqual([{ n: '2' }]);
  });

  it('on Postgres, prepares a parameterised statement once per connection and runs it by name after', async () => {
    for (let run = 0; run < 3; run++) await read(BigInt(run));
    const prepared = await sql<{ name: string; statement: string }>`
      SELECT name, statement FROM pg_prepared_statements`.execute(database.db);
    const mine = prepared.rows.filter((r) => r.statement.includes('FROM t WHERE id = $1'));
    if (database.kind === 'pg') {
      // one name for the text, however often it ran; the statement without parameters above is not among them
      expect(mine).toHaveLength(1);
      expect(mine[0]?.name).toMatch(/^bookie_\d+$/);
      expect(prepared.rows.some((r) => r.statement.includes('pg_prepared_statements'))).toBe(false);
    } else {
      // PGlite runs every statement unnamed
      expect(mine).toEqual([]);
    }
  });

  it('keeps an idle connection of the pool past the 10 s after which pg closes one by default: the same backend, its statements prepared', async () => {
    const backend = async () =>
      (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(database.db)).rows[0]?.pid;
    const first = await backend();
    // the release after this statement would arm the pool's idle timer (on the clock faked here) if the pool had one
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await read(1n);
      vi.advanceTimersByTime(60_000);
    } finally {
      vi.useRealTimers();
    }
    expect(await backend()).toBe(first);
  });

  it('on Postgres, runs a statement on its own past Kysely: prepared by name, int8 as bigint, errors thrown', async () => {
    if (database.kind !== 'pg') {
      // PGlite's one connection is Kysely's to serialise: no statement of its own
      expect(database.statement).toBeUndefined();
      return;
    }
    const run = database.statement!;
    const text = 'INSERT INTO t (id, amount) VALUES ($1, $2) RETURNING id, amount';
    expect(await run(text, [41n, '4.1'])).toEqual([{ id: 41n, amount: '4.1' }]);
    await expect(run(text, [41n, '4.2'])).rejects.toThrow(/duplicate key/);
    // autocommit: the first insert stays, the failed one left nothing behind
    expect(await run('SELECT id, amount FROM t WHERE id = $1', [41n])).toEqual([{ id: 41n, amount: '4.1' }]);
    const prepared = await sql<{ name: string }>`
      SELECT name FROM pg_prepared_statements WHERE statement = ${text}`.execute(database.db);
    expect(prepared.rows.map((r) => r.name)).toEqual([expect.stringMatching(/^bookie_\d+$/)]);
  });

  it('runs long statements that differ only inside by their own names, with their own results', async () => {
    await sql`INSERT INTO t (id, amount) VALUES (${10n}, ${'10'}), (${11n}, ${'11'}) ON CONFLICT DO NOTHING`.execute(
      database.db,
    );
    const pad = ' AND true'.repeat(30);
    const long = (column: 'id' | 'amount', id: bigint) =>
      sql<{ v: string }>`SELECT ${sql.raw(column)}::text AS v FROM t WHERE id = ${id}${sql.raw(pad)}`.execute(
        database.db,
      );
    for (let run = 0; run < 3; run++) {
      expect((await long('id', 10n)).rows).toEqual([{ v: '10' }]);
      expect((await long('amount', 11n)).rows).toEqual([{ v: '11' }]);
    }
    if (database.kind === 'pg') {
      const prepared = await sql<{ statement: string }>`
        SELECT statement FROM pg_prepared_statements`.execute(database.db);
      expect(prepared.rows.filter((r) => r.statement.endsWith(pad))).toHaveLength(2);
    }
  });

  it('runs statements as one transaction: rows in order, all or nothing, calls made together not interleaved', async () => {
    const run = database.statements;
    if (!run) throw new Error('no statements on this database');
    const insert = (id: number, amount: string) => ({
      text: 'INSERT INTO t (id, amount) VALUES ($1, $2) RETURNING id, amount',
      params: [BigInt(id), amount],
    });
    const sum = {
      text: 'SELECT count(*)::int8 AS n FROM t WHERE id BETWEEN $1 AND $2',
      params: [100n, 199n],
    };
    // each statement sees the ones before it
    expect(await run([insert(100, '1'), insert(101, '2'), sum])).toEqual([
      [{ id: 100n, amount: '1' }],
      [{ id: 101n, amount: '2' }],
      [{ n: 2n }],
    ]);
    // a failing statement (a duplicate key) rolls back the statements before it and fails those after it
    await expect(run([insert(102, '3'), insert(100, '4'), insert(103, '5')])).rejects.toThrow(
      /duplicate key/,
    );
    expect((await run([sum, sum]))[0]).toEqual([{ n: 2n }]);
    // batches called together each commit on their own, in the order of the calls
    const [a, b] = await Promise.allSettled([
      run([insert(110, '6'), insert(111, '7')]),
      run([insert(112, '8'), insert(110, '9')]),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b.status).toBe('rejected');
    expect((await run([sum, sum]))[1]).toEqual([{ n: 4n }]);
    // alone, a statement runs autocommit
    expect(await run([insert(120, '10')])).toEqual([[{ id: 120n, amount: '10' }]]);
  });

  it('on Postgres, runs a batch of prepared statements as one implicit transaction: one transaction, no BEGIN or COMMIT', async () => {
    const run = database.statements;
    if (!run) throw new Error('no statements on this database');
    const insert = (id: number) => ({
      text: 'INSERT INTO t (id, amount) VALUES ($1, $2) RETURNING pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid',
      params: [BigInt(id), '1'],
    });
    const count = {
      text: 'SELECT count(*)::int8 AS n FROM t WHERE id BETWEEN $1 AND $2',
      params: [300n, 399n],
    };
    // the first batch of a text prepares it (BEGIN … COMMIT); the next ones run as one implicit transaction
    await run([insert(300), insert(301)]);
    const [[a], [b], [n]] = (await run([insert(302), insert(303), count])) as [
      [{ xid: string; pid: number }],
      [{ xid: string; pid: number }],
      [{ n: bigint }],
    ];
    // one transaction, and the count sees the two rows inserted before it in it
    expect(a.xid).toBe(b.xid);
    expect(n).toEqual({ n: 4n });
    if (database.kind !== 'pg') return;
    // the connection's last statement is the batch's last one: no COMMIT followed it
    const activity = await sql<{ query: string; state: string }>`
      SELECT query, state FROM pg_stat_activity WHERE pid = ${a.pid}`.execute(database.db);
    expect(activity.rows).toEqual([{ query: count.text, state: 'idle' }]);
    // a failure rolls the whole batch back, and the connection goes on
    await expect(run([insert(304), insert(302)])).rejects.toThrow(/duplicate key/);
    expect(await run([count, count])).toEqual([[{ n: 4n }], [{ n: 4n }]]);
  });
});

describe('openDatabase on Postgres with preparedStatements: false', () => {
  it('runs every statement unnamed (on PGlite, which has no named statements, the same)', async () => {
    const test = await createTestDatabase();
    const database = test.url
      ? await openDatabase({ url: test.url, poolSize: 1, preparedStatements: false })
      : test;
    try {
      for (let run = 0; run < 3; run++) {
        const { rows } = await sql<{ n: number }>`SELECT ${run}::int AS n`.execute(database.db);
        expect(rows).toEqual([{ n: run }]);
      }
      const prepared = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(
        database.db,
      );
      expect(prepared.rows).toEqual([]);
    } finally {
      if (database !== test) await database.close();
      await test.close();
    }
  });
});

describe('openDatabase on an in-memory PGlite', () => {
  it('starts from the image of an empty cluster kept in the temporary directory, and each database is its own', async () => {
    const a = await openDatabase({ dataDir: undefined });
    const b = await openDatabase({ dataDir: undefined });
    try {
      const images = join(tmpdir(), 'bookie-pglite');
      const [image] = readdirSync(images).filter((f) => /^empty-cluster-.+\.tar$/.test(f));
      expect(image).toBeDefined();
      // a tar archive (ustar magic at offset 257) of a cluster's data directory
      const head = readFileSync(join(images, image as string)).subarray(0, 512);
      expect(head.subarray(257, 262).toString()).toBe('ustar');
      await sql`CREATE TABLE only_in_a (x int)`.execute(a.db);
      const tables = async (d: Database) =>
        (
          await sql<{
            n: string;
          }>`SELECT count(*)::text AS n FROM pg_tables WHERE tablename = 'only_in_a'`.execute(d.db)
        ).rows[0]?.n;
      expect(await tables(a)).toBe('1');
      expect(await tables(b)).toBe('0');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
