import { openDatabase } from '@bookie/storage';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { CLAIM_DUE_SQL, claimDue, markDelivered, REQUEUE_BORN_LEASED_SQL } from './callbacks.repo.js';
import { enqueueCallbacks } from './enqueue-callbacks.js';

/**
 * Pending `/bet/settle` rows of `n` bets (one each), with bodies of a real callback's size; with `lease`, `/bet/accept`
 * rows born leased, as placement writes them.
 */
async function fill(db: Database['db'], n: number, tag: string, lease?: { owner: string; ms: number }) {
  await inTransaction(db, (tx) =>
    enqueueCallbacks(
      tx,
      Array.from({ length: n }, (_, i) => ({
        whiteLabelId: 'wl',
        betId: `${tag}-${i}`,
        path: lease ? '/bet/accept' : '/bet/settle',
        body: { bet_id: `${tag}-${i}`, pad: 'x'.repeat(600) },
        foreignParams: {},
      })),
      lease,
    ),
  );
}

describe(`the outbox's claim and flush plans (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  /** One connection, so that what it prepared can be read back from it. */
  let one: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    one = t.url ? await openDatabase<DB>({ url: t.url, poolSize: 1 }) : t;
  });
  afterAll(async () => {
    if (one !== t) await one?.close();
    await t?.close();
  });

  it('plans the claim and the flush at every run: none is kept prepared by a connection that ran them on an empty outbox', async () => {
    // statistics of an empty outbox, as a fresh install or a drained queue has them
    await sql`analyze callback_delivery`.execute(one.db);
    // more than the five runs after which Postgres may keep a prepared statement's generic plan
    for (let i = 0; i < 8; i++) {
      expect(await claimDue(one.db, 'plan', 60_000, 10)).toEqual([]);
      expect(await markDelivered(one.db, 'plan', [{ id: 1n, status: 204 }])).toEqual({
        updated: 0,
        successors: 0,
      });
    }
    await fill(one.db, 3000, 'plan');
    const claimed = await claimDue(one.db, 'plan', 60_000, 50);
    expect(claimed).toHaveLength(50);
    expect(
      await markDelivered(
        one.db,
        'plan',
        claimed.map((c) => ({ id: c.id, status: 204 })),
      ),
    ).toEqual({
      updated: 50,
      successors: 0,
    });
    // a statement prepared by name keeps the plan it settled on while the outbox was empty: sequential scans, the
    // per-bet check a join filter over every pending row, O(pending) per claimed row once the outbox is full
    const kept = await sql<{ statement: string }>`select statement from pg_prepared_statements
      where statement like '%callback_delivery%'`.execute(one.db);
    expect(kept.rows.filter((r) => /SET lease_owner|'delivered'/.test(r.statement))).toEqual([]);
  });

  it('plans a claim over a full outbox as an index probe per candidate, even on the statistics of an empty one', async () => {
    await t.db.deleteFrom('callback_delivery').execute();
    await sql`analyze callback_delivery`.execute(t.db);
    await fill(t.db, 3000, 'stale');
    // the claim as Postgres plans it at a run: its parameters known, the table's current size read, the statistics
    // those of the empty outbox
    const text = CLAIM_DUE_SQL.replace('$1', `'plan'`).replace('$2', '60000').replace('$3', '100');
    const plan = await inTransaction(t.db, async (tx) => {
      const r = await sql.raw<Record<string, string>>(`explain ${text}`).execute(tx);
      return r.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    // no scan of the whole outbox, and the per-bet check an index probe for each candidate, not a join filter
    // over every pending row (the plan the old `NOT EXISTS` got here: O(pending) per claimed row)
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).not.toMatch(/Join Filter/);
    expect(plan).toMatch(/Index Cond: \(+bet_id = d\.bet_id/);
  });

  it('plans the recovery of born-leased rows as a range of their index, even on the statistics of an empty outbox', async () => {
    await t.db.deleteFrom('callback_delivery').execute();
    await sql`analyze callback_delivery`.execute(t.db);
    // a history of placements' /bet/accept rows (the index lists them all, delivered or not) and a queue
    await fill(t.db, 3000, 'born', { owner: 'gone', ms: 1 });
    await fill(t.db, 3000, 'queued');
    const text = REQUEUE_BORN_LEASED_SQL.replaceAll('$1', '0');
    const plan = await inTransaction(t.db, async (tx) => {
      const r = await sql.raw<Record<string, string>>(`explain ${text}`).execute(tx);
      return r.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    // a range of the born-leased rows' index; the rows to queue found by primary key, not by a join filter
    expect(plan).not.toMatch(/Seq Scan on callback_delivery /);
    expect(plan).not.toMatch(/Join Filter/);
    expect(plan).toMatch(
      /Index Scan using callback_delivery_born_leased on callback_delivery d [^\n]*\n\s+Index Cond: \(+created_at >= /,
    );
    // (PGlite may probe the ids through another index than the primary key, as for the claim: ADR 0057)
    expect(plan).toMatch(
      /Index Scan using callback_delivery_\w+ on callback_delivery d_1 [^\n]*\n\s+Index Cond: \(id = ANY/,
    );
  });
});
