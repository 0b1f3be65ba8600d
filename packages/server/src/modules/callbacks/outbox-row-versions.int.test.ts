import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { claimDue, listDeliveries, markDelivered, requeueBornLeased } from './callbacks.repo.js';
import { enqueueCallbacks } from './enqueue-callbacks.js';

const cb = (betId: string, path: string) => ({
  whiteLabelId: 'wl',
  betId,
  path,
  body: { bet_id: betId, pad: 'x'.repeat(100) },
  foreignParams: {},
});

/** Updates of `callback_delivery` this connection counted and has not reported yet, and how many were HOT. */
async function updateCounts(tx: Executor) {
  const r = await sql<{ updated: string; hot: string }>`select
      pg_stat_get_xact_tuples_updated('callback_delivery'::regclass)::text as updated,
      pg_stat_get_xact_tuples_hot_updated('callback_delivery'::regclass)::text as hot`.execute(tx);
  return { updated: Number(r.rows[0]?.updated), hot: Number(r.rows[0]?.hot) };
}

/** Runs `work` in a transaction; returns its result and the updates of `callback_delivery` it made (HOT apart). */
async function countingUpdates<T>(db: Database['db'], work: (tx: Executor) => Promise<T>) {
  return inTransaction(db, async (tx) => {
    const before = await updateCounts(tx);
    const result = await work(tx);
    const after = await updateCounts(tx);
    return { result, updated: after.updated - before.updated, hot: after.hot - before.hot };
  });
}

describe(`the outbox's row versions (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => {
    await t.db.deleteFrom('callback_delivery').execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks rows born leased delivered as HOT updates (no index changes); a queued row leaves the claim index', async () => {
    // a decision batch's /bet/accept rows, born leased to this process's dispatcher (on one page, with room for
    // their new versions: HOT needs both)
    const born = await inTransaction(t.db, (tx) =>
      enqueueCallbacks(
        tx,
        Array.from({ length: 12 }, (_, i) => cb(`H${i}`, '/bet/accept')),
        { owner: 'me', ms: 60_000 },
      ),
    );
    const done = await countingUpdates(t.db, (tx) =>
      markDelivered(
        tx,
        'me',
        born.map((r) => ({ id: r.id, status: 204 })),
      ),
    );
    expect(done).toEqual({ result: { updated: 12, successors: 0 }, updated: 12, hot: 12 });

    // a queued row (settlement's) is claimed, then delivered: that update takes it out of the claim's index
    await inTransaction(t.db, (tx) => enqueueCallbacks(tx, [cb('Q', '/bet/settle')]));
    const [claimed] = await claimDue(t.db, 'me', 60_000, 10);
    expect(claimed?.bet_id).toBe('Q');
    const queued = await countingUpdates(t.db, (tx) =>
      markDelivered(tx, 'me', [{ id: claimed!.id, status: 204 }]),
    );
    expect(queued).toEqual({ result: { updated: 1, successors: 0 }, updated: 1, hot: 0 });
    const rows = await t.db.selectFrom('callback_delivery').select(['status', 'queued']).execute();
    expect(rows.every((r) => r.status === 'delivered' && !r.queued)).toBe(true);
  });

  it('hands a born-leased row to the queue once its lease expired, never moving its mark past a lease still running', async () => {
    const [running] = await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('R', '/bet/accept')], { owner: 'alive', ms: 600_000 }),
    );
    const [dead] = await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('X', '/bet/accept')], { owner: 'dead', ms: 0 }),
    );
    // X settled meanwhile: its /bet/settle is queued behind its /bet/accept
    await inTransaction(t.db, (tx) => enqueueCallbacks(tx, [cb('X', '/bet/settle')]));
    // born-leased rows are not the claim's; X's /bet/settle is not the head of its bet's queue
    expect(await claimDue(t.db, 'other', 60_000, 10)).toEqual([]);

    expect(await requeueBornLeased(t.db, 0)).toBe(1);
    const claimed = await claimDue(t.db, 'other', 60_000, 10);
    expect(claimed.map((c) => [c.bet_id, c.id])).toEqual([['X', dead!.id]]);
    // the mark stops at the row whose lease still runs: a later run looks at it again
    const mark = async () =>
      (await t.db.selectFrom('callback_recovery_mark').select('through').executeTakeFirstOrThrow()).through;
    const rowR = await t.db
      .selectFrom('callback_delivery')
      .select('created_at')
      .where('id', '=', running!.id)
      .executeTakeFirstOrThrow();
    expect(new Date(await mark()).getTime()).toBe(new Date(rowR.created_at).getTime());
    expect(await requeueBornLeased(t.db, 0)).toBe(0);

    // recorded by its dispatcher, the running one no longer holds the mark
    await markDelivered(t.db, 'alive', [{ id: running!.id, status: 204 }]);
    expect(await requeueBornLeased(t.db, 0)).toBe(0);
    expect(new Date(await mark()).getTime()).toBeGreaterThan(new Date(rowR.created_at).getTime());
    // a row written less than the grace ago is not looked at yet (its transaction may still be committing)
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('Y', '/bet/accept')], { owner: 'dead', ms: 0 }),
    );
    expect(await requeueBornLeased(t.db, 3_600_000)).toBe(0);
    expect(await requeueBornLeased(t.db, 0)).toBe(1);
  });

  it('lists pending deliveries, newest first: queued ones and born-leased ones not yet recorded', async () => {
    const [born] = await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('P1', '/bet/accept')], { owner: 'me', ms: 60_000 }),
    );
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('P2', '/bet/settle'), cb('P3', '/bet/settle')]),
    );
    const [done] = await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [cb('P4', '/bet/accept')], { owner: 'me', ms: 60_000 }),
    );
    await markDelivered(t.db, 'me', [{ id: done!.id, status: 204 }]);
    const pending = async (limit: number) =>
      (await listDeliveries(t.db, { status: 'pending', limit })).map((r) => r.bet_id);
    expect(await pending(10)).toEqual(['P3', 'P2', 'P1']);
    expect(await pending(2)).toEqual(['P3', 'P2']);
    expect((await listDeliveries(t.db, { status: 'delivered', limit: 10 })).map((r) => r.bet_id)).toEqual([
      'P4',
    ]);
    await markDelivered(t.db, 'me', [{ id: born!.id, status: 204 }]);
    expect(await pending(10)).toEqual(['P3', 'P2']);
  });
});
