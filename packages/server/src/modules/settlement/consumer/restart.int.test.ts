import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementDeps } from '../../../app/module-deps.js';
import { waitUntil } from '../../../testing/scripted-partner.js';
import { patchMarkets } from '../../trading/patch-markets.js';
import { insertBets, type SettlementWorld, settlementWorld } from '../settlement.testing.js';
import { SettlementConsumer } from './settlement-consumer.js';

/** Settle callbacks in the outbox per bet id. */
async function settlesPerBet(w: SettlementWorld, ids: string[]): Promise<Map<string, number>> {
  const rows = await sql<{ bet_id: string; n: string }>`
    select bet_id, count(*)::text as n from callback_delivery
    where path = '/bet/settle' and bet_id = any(${ids}) group by bet_id`.execute(w.t.deps.database.db);
  return new Map(rows.rows.map((r) => [r.bet_id, Number(r.n)]));
}

describe(`settlement consumer restarts and leadership (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let whiteLabelId: string;
  const consumers: SettlementConsumer[] = [];
  const consumer = (opts: ConstructorParameters<typeof SettlementConsumer>[1] = {}) => {
    const c = new SettlementConsumer(settlementDeps(w.t.deps), {
      sweepIntervalMs: 0,
      ...opts,
    });
    consumers.push(c);
    return c;
  };

  beforeAll(async () => {
    w = await settlementWorld();
    ({ whiteLabelId } = await w.newPlayer('p1'));
    await w.consumer.stop(); // this file drives its own consumers
  });
  afterAll(async () => {
    for (const c of consumers) await c.stop();
    await w?.close();
  });

  it('resumes an entry cut short mid-batch without settling any bet twice', async () => {
    const e = await w.newEvent(1);
    const ids = await insertBets(w.t.deps.database, {
      whiteLabelId,
      legs: [{ eventId: e, marketId: '1', oddId: '1', odds: '1.5' }],
      count: 23,
    });
    const saved = async () =>
      (
        await w.t.deps.database.db
          .selectFrom('consumer_offset')
          .select('version')
          .where('name', '=', 'settlement')
          .executeTakeFirst()
      )?.version ?? 0n;

    // the first consumer dies after its second batch of 5 has committed
    let cut!: () => void;
    const died = new Promise<void>((r) => {
      cut = r;
    });
    const first = consumer({
      pageSize: 5,
      afterBatch: ({ batch }) => {
        if (batch === 2) {
          void first.stop();
          cut();
          throw new Error('crash after the second batch');
        }
      },
    });
    first.start();
    const { version } = await w.trading(
      patchMarkets(w.t.deps, { id: e, body: { markets: [{ id: '1', odds: [{ id: '1', status: 1 }] }] } }),
    );
    await died;
    await first.stop();
    const half = await settlesPerBet(w, ids);
    expect([...half.values()].reduce((a, b) => a + b, 0)).toBe(10);
    expect(await saved()).toBeLessThan(version);

    // a new consumer resumes from the saved version, re-processes the entry, settles only the 13 left
    const second = consumer({ pageSize: 5 });
    second.start();
    // it may first wait for the dead consumer's lease to run out: the bound only catches a hang
    await second.waitFor(version, 90_000);
    const all = await settlesPerBet(w, ids);
    expect(all.size).toBe(23);
    expect([...all.values()].every((n) => n === 1)).toBe(true);
    await waitUntil(async () => (await saved()) >= version);
    await waitUntil(() => ids.every((id) => w.settlementsOf(id).length === 1));
    await second.stop();
  });

  it('runs one leader at a time, fails over, and fences a leader that lost its lease', async () => {
    for (const c of consumers) await c.stop();
    const e = await w.newEvent(1);
    const ids = await insertBets(w.t.deps.database, {
      whiteLabelId,
      legs: [{ eventId: e, marketId: '1', oddId: '2', odds: '2.5' }],
      count: 12,
    });
    const a = consumer({ pageSize: 4, leaseTtlMs: 1500 });
    const b = consumer({ pageSize: 4, leaseTtlMs: 1500 });
    a.start();
    await waitUntil(() => a.status().leader);
    b.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(b.status().leader).toBe(false);

    // another process takes the lease behind the leader's back: its next batch is fenced off and writes nothing
    await sql`update leader_lease set holder = 'someone-else', epoch = epoch + 1,
      expires_at = now() + interval '1 hour' where role = 'settlement'`.execute(w.t.deps.database.db);
    const { version } = await w.trading(
      patchMarkets(w.t.deps, { id: e, body: { markets: [{ id: '1', odds: [{ id: '2', status: 1 }] }] } }),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await settlesPerBet(w, ids)).size).toBe(0);
    await waitUntil(() => !a.status().leader);

    // the lease expires; a consumer takes over and settles everything once
    await sql`update leader_lease set expires_at = now() - interval '1 second' where role = 'settlement'`.execute(
      w.t.deps.database.db,
    );
    await waitUntil(() => a.status().leader || b.status().leader, 25_000);
    const leader = a.status().leader ? a : b;
    await leader.waitFor(version);
    const all = await settlesPerBet(w, ids);
    expect(all.size).toBe(12);
    expect([...all.values()].every((n) => n === 1)).toBe(true);

    // a clean stop hands over at once
    const other = leader === a ? b : a;
    await leader.stop();
    await waitUntil(() => other.status().leader);
  });
});
