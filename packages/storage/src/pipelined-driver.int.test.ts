import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { sendQuery, sendWrite } from './pipelined-driver.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Runs on PGlite, or on Postgres when DATABASE_URL is set (then over the pipelined pool). */
describe('writes sent without waiting (sendWrite)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await sql`CREATE TABLE w (id int8 PRIMARY KEY, amount numeric NOT NULL)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  const insert = (id: number, amount: string) =>
    CompiledQuery.raw('INSERT INTO w (id, amount) VALUES ($1, $2)', [BigInt(id), amount]);
  const amounts = async (from: number, to: number) =>
    (
      await sql<{ id: bigint; amount: string }>`
        SELECT id, amount FROM w WHERE id BETWEEN ${from} AND ${to} ORDER BY id`.execute(database.db)
    ).rows;

  it('are seen by the statements after them, in order, and commit with the transaction', async () => {
    const seen = await database.db.transaction().execute(async (tx) => {
      await sendWrite(tx, insert(1, '1.5'));
      await sendWrite(tx, insert(2, '2.25'));
      await sendWrite(tx, CompiledQuery.raw('UPDATE w SET amount = amount * 2 WHERE id = $1', [1n]));
      return (await sql<{ n: bigint }>`SELECT count(*)::int8 AS n FROM w WHERE id <= 2`.execute(tx)).rows;
    });
    expect(seen).toEqual([{ n: 2n }]);
    expect(await amounts(1, 2)).toEqual([
      { id: 1n, amount: '3.0' },
      { id: 2n, amount: '2.25' },
    ]);
  });

  it('fail the transaction with their own error at the next statement that waits, keeping nothing', async () => {
    await sendWrite(database.db, insert(10, '1'));
    let caught: unknown;
    try {
      await database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, insert(11, '1'));
        await sendWrite(tx, insert(10, '2')); // a duplicate key
        await sql`SELECT 1`.execute(tx);
      });
    } catch (e) {
      caught = e;
    }
    expect((caught as { code?: string }).code).toBe('23505');
    expect(String(caught)).toMatch(/duplicate key/);
    expect(await amounts(10, 11)).toEqual([{ id: 10n, amount: '1' }]);
  });

  it('fail the transaction with their own error at the commit when nothing waits after them', async () => {
    await sendWrite(database.db, insert(20, '1'));
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, insert(21, '1'));
        await sendWrite(tx, insert(20, '2'));
        await sendWrite(tx, insert(22, '1'));
        return 'returned';
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await amounts(20, 22)).toEqual([{ id: 20n, amount: '1' }]);
    // the connection is whole again: the next transaction commits
    await database.db.transaction().execute(async (tx) => {
      await sendWrite(tx, insert(21, '5'));
    });
    expect(await amounts(21, 21)).toEqual([{ id: 21n, amount: '5' }]);
  });

  it('are rolled back with the transaction when its work throws after them', async () => {
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, insert(30, '1'));
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await amounts(30, 30)).toEqual([]);
  });

  it('with reads sent without waiting (sendQuery): each read sees the statements sent before it, its rows come later', async () => {
    const count = () =>
      CompiledQuery.raw('SELECT count(*)::int8 AS n FROM w WHERE id BETWEEN $1 AND $2', [50n, 59n]);
    const seen = await database.db.transaction().execute(async (tx) => {
      const before = await sendQuery<{ n: bigint }>(tx, count());
      await sendWrite(tx, insert(50, '1'));
      const after = await sendQuery<{ n: bigint }>(tx, count());
      await sendWrite(tx, insert(51, '1'));
      return { before: await before.rows, after: await after.rows };
    });
    expect(seen).toEqual({ before: [{ n: 0n }], after: [{ n: 1n }] });
    expect(await amounts(50, 51)).toHaveLength(2);
    // outside a transaction it runs at once
    const alone = await sendQuery<{ n: bigint }>(database.db, count());
    expect(await alone.rows).toEqual([{ n: 2n }]);
  });

  it('a read sent without waiting that fails rejects its rows and the transaction with its own error', async () => {
    let rowsError: unknown;
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, insert(60, '1'));
        try {
          // on Postgres the call resolves and its rows reject; on PGlite the call itself rejects
          const bad = await sendQuery(tx, CompiledQuery.raw('SELECT 1 / (0 * $1::int) AS n', [1]));
          await sendWrite(tx, insert(61, '1'));
          await bad.rows;
        } catch (e) {
          rowsError = e;
          throw e;
        }
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect((rowsError as { code?: string }).code).toBe('22012');
    expect(await amounts(60, 61)).toEqual([]);
  });

  it('keep the transaction settings: its isolation level is the one asked for', async () => {
    const level = await database.db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(
        async (tx) =>
          (await sql<{ transaction_isolation: string }>`SHOW transaction_isolation`.execute(tx)).rows[0],
      );
    expect(level).toEqual({ transaction_isolation: 'serializable' });
  });

  it('on Postgres resolve before their answer; on PGlite after it', async () => {
    await sendWrite(database.db, insert(40, '1'));
    if (database.url === undefined) {
      // one connection, each statement waited for: the write is done when the call resolves
      await database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, CompiledQuery.raw('UPDATE w SET amount = 7 WHERE id = $1', [40n]));
        expect((await sql<{ amount: string }>`SELECT amount FROM w WHERE id = 40`.execute(tx)).rows).toEqual([
          { amount: '7' },
        ]);
      });
      expect(await amounts(40, 40)).toEqual([{ id: 40n, amount: '7' }]);
      return;
    }
    // another session holds the row: the update waits on its lock until that session ends
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM w WHERE id = 40 FOR UPDATE');
      let sent = false;
      const committed = database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, CompiledQuery.raw('UPDATE w SET amount = 7 WHERE id = $1', [40n]));
        sent = true;
        return 'committed';
      });
      // the update is on the server, waiting for the holder's row lock
      for (;;) {
        // (pg_stat_activity does not name a pipelined statement reliably; the lock table shows the waiter)
        const { rows } = await holder.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'
             AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())`,
        );
        if (rows[0]?.n === '1') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // the call resolved while its update still waits for the row the holder has not let go of
      expect(sent).toBe(true);
      expect(await amounts(40, 40)).toEqual([{ id: 40n, amount: '1' }]);
      await holder.query('COMMIT');
      expect(await committed).toBe('committed');
      expect(await amounts(40, 40)).toEqual([{ id: 40n, amount: '7' }]);
    } finally {
      await holder.end();
    }
  });

  it('with pipelining off (DB_PIPELINE=0) write, read and fail alike, each statement sent after the one before', async () => {
    // on PGlite there is no such setting: the same checks run on its one connection
    const off: Database = database.url
      ? await openDatabase({ url: database.url, poolSize: 1, pipeline: false })
      : database;
    try {
      const count = CompiledQuery.raw('SELECT count(*)::int8 AS n FROM w WHERE id BETWEEN $1 AND $2', [
        70n,
        79n,
      ]);
      const seen = await off.db.transaction().execute(async (tx) => {
        await sendWrite(tx, insert(70, '1'));
        const read = await sendQuery<{ n: bigint }>(tx, count);
        await sendWrite(tx, insert(71, '1'));
        return read.rows;
      });
      expect(seen).toEqual([{ n: 1n }]);
      await expect(
        off.db.transaction().execute(async (tx) => {
          await sendWrite(tx, insert(72, '1'));
          await sendWrite(tx, insert(70, '2'));
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await amounts(70, 79)).toEqual([
        { id: 70n, amount: '1' },
        { id: 71n, amount: '1' },
      ]);
    } finally {
      if (off !== database) await off.close();
    }
  });

  it('a connection lost in the middle of a transaction fails it, and the next transaction runs on a whole connection', async () => {
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sendWrite(tx, insert(80, '1'));
        // the backend of this very transaction ends: what was sent is lost with it (on PGlite: the work fails)
        if (database.url) await sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(tx);
        else throw new Error('the work failed');
      }),
    ).rejects.toThrow();
    expect(await amounts(80, 80)).toEqual([]);
    await database.db.transaction().execute(async (tx) => {
      await sendWrite(tx, insert(81, '1'));
    });
    expect(await amounts(80, 81)).toEqual([{ id: 81n, amount: '1' }]);
  });
});
