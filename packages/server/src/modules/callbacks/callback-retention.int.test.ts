import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../app/test-app.js';
import { startBackground } from '../../app/wiring.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { runCallbackRetention } from './callback-retention.js';
import { readRetentionMark } from './callbacks.repo.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T12:00:00Z');

/** What the retention never removes: money callbacks, and callbacks not delivered. */
const KEPT = ['settle-old', 'accept-failed', 'place-pending', 'insurance-old', 'cash-out-old'];

type Status = 'pending' | 'delivered' | 'failed' | 'unsupported';

describe(`the outbox's retention (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  /** Outbox ids by tag, in the order written. */
  const ids = new Map<string, bigint>();

  async function write(tag: string, path: string, status: Status, ageDays: number) {
    const row = await t.db
      .insertInto('callback_delivery')
      .values({
        request_id: randomUUID(),
        white_label_id: 'wl',
        bet_id: `bet-${tag}`,
        path,
        body: JSON.stringify({ bet_id: `bet-${tag}`, pad: 'x'.repeat(200) }),
        status,
        created_at: new Date(NOW - ageDays * DAY),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(tag, BigInt(row.id));
  }

  /** A run of the retention at `now`, 90 days, `stepRows` rows per step. */
  const runAt = (now: number, stepRows?: number) =>
    runCallbackRetention(
      { database: t, clock: { now: () => now } },
      { retentionS: 90 * 86_400, ...(stepRows ? { stepRows } : {}) },
    );

  async function left(): Promise<string[]> {
    const rows = await t.db.selectFrom('callback_delivery').select(['bet_id']).orderBy('id').execute();
    return rows.map((r) => r.bet_id.slice(4));
  }

  beforeAll(async () => {
    t = await createTestDatabase();
    await write('place-old', '/bet/place', 'delivered', 100);
    await write('accept-old', '/bet/accept', 'delivered', 100);
    await write('settle-old', '/bet/settle', 'delivered', 99);
    await write('accept-failed', '/bet/accept', 'failed', 99);
    await write('decline-old', '/bet/decline', 'delivered', 98);
    await write('place-pending', '/bet/place', 'pending', 98);
    await write('insurance-old', '/bet/insurances/accepted', 'delivered', 97);
    await write('cash-out-old', '/bet/cash-out-orders/accepted', 'delivered', 97);
    await write('accept-young', '/bet/accept', 'delivered', 10);
    // written after a young row although older (rows committed out of order): the next run takes it
    await write('place-late', '/bet/place', 'delivered', 95);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps everything when the retention is 0', async () => {
    const r = await runCallbackRetention({ database: t, clock: { now: () => NOW } }, { retentionS: 0 });
    expect(r).toEqual({ examined: 0, deleted: 0, throughId: 0n });
    expect(await left()).toHaveLength(10);
  });

  it('removes nothing when its fence fails, and leaves the mark', async () => {
    await expect(
      runCallbackRetention(
        { database: t, clock: { now: () => NOW } },
        { retentionS: 90 * 86_400, stepRows: 2 },
        async () => {
          throw new Error('the lease is lost');
        },
      ),
    ).rejects.toThrow('the lease is lost');
    expect(await left()).toHaveLength(10);
    expect(await readRetentionMark(t.db)).toBe(0n);
  });

  it('stops a run after the rows it may read, and the next run goes on from its mark', async () => {
    const r = await runCallbackRetention(
      { database: t, clock: { now: () => NOW } },
      { retentionS: 90 * 86_400, stepRows: 2, runRows: 4 },
    );
    expect(r).toEqual({ examined: 4, deleted: 2, throughId: ids.get('accept-failed') });
    expect(await readRetentionMark(t.db)).toBe(ids.get('accept-failed'));
    expect(await left()).toHaveLength(8);
  });

  it('removes the old delivered placement callbacks up to the first young row, step by step, and keeps the rest', async () => {
    const r = await runAt(NOW, 3);
    // the run before removed two of them
    expect(r.deleted).toBe(1);
    expect(r.throughId).toBe(ids.get('cash-out-old'));
    expect(await readRetentionMark(t.db)).toBe(ids.get('cash-out-old'));
    expect(await left()).toEqual([...KEPT, 'accept-young', 'place-late']);
  });

  it('finds nothing more at the same moment: the mark does not move', async () => {
    const r = await runAt(NOW, 3);
    expect(r.deleted).toBe(0);
    expect(r.throughId).toBe(ids.get('cash-out-old'));
    expect(await left()).toHaveLength(7);
  });

  it('goes on from its mark once the younger rows are old too', async () => {
    const r = await runAt(NOW + 81 * DAY);
    expect(r.deleted).toBe(2);
    expect(r.throughId).toBe(ids.get('place-late'));
    expect(await left()).toEqual(KEPT);
  });
});

describe(`the outbox's retention in a running process (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('runs in the leader of the retention role once it starts, with CALLBACK_RETENTION_S', async () => {
    const database = await createTestDatabase();
    const now = Date.now();
    for (const [bet, age] of [
      ['old', 2 * DAY],
      ['young', DAY / 2],
    ] as const) {
      await database.db
        .insertInto('callback_delivery')
        .values({
          request_id: randomUUID(),
          white_label_id: 'wl',
          bet_id: bet,
          path: '/bet/accept',
          body: '{}',
          status: 'delivered',
          created_at: new Date(now - age),
        } as never)
        .execute();
    }
    const t = await createTestApp(database, { env: { CALLBACK_RETENTION_S: '86400' } });
    try {
      await startBackground(t.deps);
      await vi.waitFor(
        async () => {
          const rows = await database.db.selectFrom('callback_delivery').select('bet_id').execute();
          expect(rows.map((r) => r.bet_id)).toEqual(['young']);
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await t.close();
    }
  });
});
