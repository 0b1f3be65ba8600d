import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { LeaderLease, LeadershipLostError, runWhileLeader } from './leader-lease.js';
import { listLeases } from './leadership.repo.js';

describe(`leader leases with epoch fencing (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  const logger = pino({ level: 'silent' });
  const started: LeaderLease[] = [];
  const lease = (role: string, ttlMs = 3000) => {
    const l = new LeaderLease({ database: t, logger }, role, { ttlMs });
    started.push(l);
    return l;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    for (const l of started) await l.stop();
    await t?.close();
  });

  it('one holder at a time; a second process follows', async () => {
    const a = lease('r1');
    const b = lease('r1');
    await a.tick();
    await b.tick();
    expect(a.isLeader).toBe(true);
    expect(b.isLeader).toBe(false);
    // renewing keeps the epoch
    const epoch = a.epoch;
    await a.tick();
    expect(a.epoch).toBe(epoch);
    const [row] = (await listLeases(t.db)).filter((r) => r.role === 'r1');
    expect(row?.holder).toBe(a.holder);
    expect(row?.epoch).toBe(epoch);
  });

  it('after the lease expires another process takes over with a new epoch; the old leader cannot write', async () => {
    const a = lease('r2');
    const b = lease('r2');
    await a.tick();
    const oldEpoch = a.epoch!;
    await sql`update leader_lease set expires_at = now() - interval '1 second' where role = 'r2'`.execute(
      t.db,
    );
    await b.tick();
    expect(b.isLeader).toBe(true);
    expect(b.epoch).toBe(oldEpoch + 1n);
    // the stale leader still believes it leads (its clock), but its fenced write is refused and rolls back
    await sql`create table if not exists fenced_write (who text)`.execute(t.db);
    await expect(
      inTransaction(t.db, async (tx) => {
        await sql`insert into fenced_write values ('a')`.execute(tx);
        await a.fence(tx);
      }),
    ).rejects.toBeInstanceOf(LeadershipLostError);
    await inTransaction(t.db, async (tx) => {
      await b.fence(tx);
      await sql`insert into fenced_write values ('b')`.execute(tx);
    });
    const rows = await sql<{ who: string }>`select who from fenced_write`.execute(t.db);
    expect(rows.rows.map((r) => r.who)).toEqual(['b']);
    // and its next renewal tells it
    await a.tick();
    expect(a.isLeader).toBe(false);
  });

  it('a holder that stops renewing (dies) is replaced within twice the lease', async () => {
    const ttlMs = 3000;
    const dead = lease('r3', ttlMs);
    await dead.tick(); // leads, then never renews again: like a kill -9
    const lastRenewal = Date.now();
    const follower = lease('r3', ttlMs);
    follower.start();
    await waitUntil(() => follower.isLeader, 4 * ttlMs);
    expect(Date.now() - lastRenewal).toBeLessThan(2 * ttlMs);
  });

  it('a clean stop hands the role over at the next try', async () => {
    const a = lease('r4');
    const b = lease('r4');
    await a.tick();
    await a.stop();
    await b.tick();
    expect(b.isLeader).toBe(true);
  });

  it('an exclusive process (the embedded database) takes a role held by a dead one at once, with the next epoch', async () => {
    const dead = lease('r6', 60_000);
    await dead.tick();
    const restarted = new LeaderLease({ database: t, logger }, 'r6', { ttlMs: 60_000, exclusive: true });
    started.push(restarted);
    await restarted.tick();
    expect(restarted.isLeader).toBe(true);
    expect(restarted.epoch).toBe(dead.epoch! + 1n);
    await expect(inTransaction(t.db, (tx) => dead.fence(tx))).rejects.toBeInstanceOf(LeadershipLostError);
  });

  it('runWhileLeader runs the work in the leader only, with its fence', async () => {
    const a = lease('r5', 900);
    const b = lease('r5', 900);
    let ranA = 0;
    let ranB = 0;
    await a.tick();
    a.start();
    b.start();
    const stopA = runWhileLeader(
      a,
      50,
      async (fence) => {
        await inTransaction(t.db, fence);
        ranA++;
      },
      (err) => {
        throw err;
      },
    );
    const stopB = runWhileLeader(
      b,
      50,
      async (fence) => {
        await inTransaction(t.db, fence);
        ranB++;
      },
      (err) => {
        throw err;
      },
    );
    await waitUntil(() => ranA >= 3, 10_000);
    expect(ranB).toBe(0);
    await stopA();
    await a.stop(); // the role moves to b
    await waitUntil(() => ranB >= 2, 10_000);
    await stopB();
  });
});
