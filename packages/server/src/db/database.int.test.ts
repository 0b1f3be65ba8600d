import { DomainError } from '@bookie/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database.js';
import { waitUntil } from '../testing/scripted-partner.js';
import { migrateToLatest } from './migrate.js';
import { pgArray } from './pg-array.js';
import { inTransaction } from './transaction.js';

describe(`database (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('applies every migration once, then none', async () => {
    const first = await migrateToLatest(t.db);
    expect(first).toContain('0001_foundation');
    expect(await migrateToLatest(t.db)).toEqual([]);
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public'`.execute(t.db);
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['consumer_offset', 'audit_log']),
    );
  });

  it('reads int8 as bigint and numeric as an exact string', async () => {
    const r = await sql<{ big: bigint; num: string }>`
      select 9007199254740993::int8 as big, 0.1234567890123456789::numeric as num`.execute(t.db);
    expect(r.rows[0]?.big).toBe(9007199254740993n);
    expect(r.rows[0]?.num).toBe('0.1234567890123456789');
  });

  it('reads an array literal parameter as the array it writes', async () => {
    const texts = ['a', 'b"c', 'd\\e', 'f,g}', '', '"x\ny\t"', '"😀\u2028"', '{"k":"\\"}'];
    const r = await sql<{ t: string | null; n: string; i: number }>`
      select k.t, k.n::text as n, k.i from unnest(${pgArray([...texts, null])}::text[],
        ${pgArray(['1.5', '2', '0.000001', '3', '4', '6', '7', '8', '5'])}::numeric[],
        ${pgArray([1, 2, 3, 4, 5, 6, 7, 8, 9])}::int4[])
        as k(t, n, i)`.execute(t.db);
    expect(r.rows).toEqual([
      ...texts.map((t, i) => ({ t, n: ['1.5', '2', '0.000001', '3', '4', '6', '7', '8'][i], i: i + 1 })),
      { t: null, n: '5', i: 9 },
    ]);
  });

  it('reads booleans, JSON texts and times of an array literal parameter as they were written', async () => {
    const docs = ['{"a":"b\\"c","d":["e\\\\f"]}', '[]', null, '{"x":1}'];
    const at = new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6));
    const r = await sql<{ b: boolean | null; j: unknown; d: Date | null }>`
      select k.b, k.j, k.d from unnest(${pgArray([true, false, null, true])}::bool[],
        ${pgArray(docs)}::jsonb[], ${pgArray([at, null, at, null])}::timestamptz[]) as k(b, j, d)`.execute(
      t.db,
    );
    expect(r.rows).toEqual([
      { b: true, j: { a: 'b"c', d: ['e\\f'] }, d: at },
      { b: false, j: [], d: null },
      { b: null, j: null, d: at },
      { b: true, j: { x: 1 }, d: null },
    ]);
  });

  it('rolls back every write of a failed transaction', async () => {
    await t.db.insertInto('consumer_offset').values({ name: 'before', version: 1n }).execute();
    await expect(
      inTransaction(t.db, async (tx) => {
        await tx.insertInto('consumer_offset').values({ name: 'inside', version: 2n }).execute();
        await tx.updateTable('consumer_offset').set({ version: 3n }).where('name', '=', 'before').execute();
        throw new DomainError('conflict', 'boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await t.db
      .selectFrom('consumer_offset')
      .select(['name', 'version'])
      .orderBy('name')
      .execute();
    expect(rows).toEqual([{ name: 'before', version: 1n }]);
  });

  it('rolls back when a statement fails inside the transaction', async () => {
    await expect(
      inTransaction(t.db, async (tx) => {
        await tx.insertInto('consumer_offset').values({ name: 'dup', version: 1n }).execute();
        await tx.insertInto('consumer_offset').values({ name: 'dup', version: 2n }).execute();
      }),
    ).rejects.toThrow();
    const dup = await t.db.selectFrom('consumer_offset').selectAll().where('name', '=', 'dup').execute();
    expect(dup).toEqual([]);
  });

  it('delivers NOTIFY to a listener', async () => {
    const got: string[] = [];
    const unlisten = await t.listen('bookie_test', (p) => got.push(p));
    await sql`select pg_notify('bookie_test', 'hello')`.execute(t.db);
    await waitUntil(() => got.length > 0);
    await unlisten();
    expect(got).toEqual(['hello']);
  });
});
