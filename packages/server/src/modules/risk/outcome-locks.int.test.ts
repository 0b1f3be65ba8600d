import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { readLockedExposure } from './exposure.repo.js';

const outcome = (odd: string) => ({
  sport_event_id: 'ev-locks',
  market_id: '1',
  odd_id: odd,
  phase: 'prematch' as const,
});

/**
 * The exposure locks are per outcome: reading an outcome's exposure under its lock takes one advisory lock per
 * distinct outcome, and (Postgres, where transactions run side by side) a decision on another outcome goes on
 * while one on the same outcome waits.
 */
describe(`exposure locks per outcome (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
  });

  const advisoryHeld = async (tx: Executor) =>
    Number(
      (
        await sql<{ n: string }>`select count(*)::text as n from pg_locks
          where locktype = 'advisory' and granted and pid = pg_backend_pid()`.execute(tx)
      ).rows[0]?.n,
    );

  it('takes one lock per distinct outcome, none for another', async () => {
    await inTransaction(t.db, async (tx) => {
      await readLockedExposure(tx, 'wl-a', [outcome('1'), outcome('2'), outcome('1')]);
      expect(await advisoryHeld(tx)).toBe(2);
      await readLockedExposure(tx, 'wl-a', [outcome('2')]);
      expect(await advisoryHeld(tx)).toBe(2);
      await readLockedExposure(tx, 'wl-b', [outcome('2')]);
      expect(await advisoryHeld(tx)).toBe(3);
    });
  });

  it('lets a decision on another outcome through while one on the same outcome waits', async () => {
    if (!process.env.DATABASE_URL) {
      // PGlite has one connection: transactions run one after the other, the locks are still taken
      await inTransaction(t.db, (tx) => readLockedExposure(tx, 'wl-a', [outcome('1')]));
      await inTransaction(t.db, (tx) => readLockedExposure(tx, 'wl-a', [outcome('1')]));
      return;
    }
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const first = inTransaction(t.db, async (tx) => {
      await readLockedExposure(tx, 'wl-a', [outcome('1')]);
      locked();
      await held;
    });
    await isLocked;
    // another outcome: answered while the first transaction holds its lock
    await inTransaction(t.db, (tx) => readLockedExposure(tx, 'wl-a', [outcome('2'), outcome('3')]));
    // the same outcome: waits for the first to end
    let sameDone = false;
    const same = inTransaction(t.db, (tx) =>
      readLockedExposure(tx, 'wl-a', [outcome('3'), outcome('1')]),
    ).then(() => {
      sameDone = true;
    });
    // it is waiting on the lock (seen from the database, not from a clock)
    for (;;) {
      const waiting = await sql<{ n: string }>`select count(*)::text as n from pg_locks
        where locktype = 'advisory' and not granted
          and database = (select oid from pg_database where datname = current_database())`.execute(t.db);
      if (Number(waiting.rows[0]?.n) > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(sameDone).toBe(false);
    release();
    await first;
    await same;
    expect(sameDone).toBe(true);
  });
});
