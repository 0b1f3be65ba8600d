import { ODD_STATUS } from '@bookie/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementDeps } from '../../../app/module-deps.js';
import { waitUntil } from '../../../testing/scripted-partner.js';
import { insertBetExposure } from '../../risk/exposure.repo.js';
import { insertBets, type SettlementWorld, settlementWorld } from '../settlement.testing.js';
import { applyPage } from './apply-page.js';

/**
 * Pages of a settlement batch in flight at once (Postgres) share locks their bets do not: the exposure lock the bet
 * state trigger takes, a player's risk rows. A page waiting for its turn to commit must hold none of them, or the
 * page ahead of it waits on that lock while it waits for that page — a cycle no database detects, which stalled
 * settlement for good. PGlite runs one page at a time; there the pages run in turn and settle the same way.
 */
describe(`settlement pages in flight (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let whiteLabelId: string;

  beforeAll(async () => {
    w = await settlementWorld();
    ({ whiteLabelId } = await w.newPlayer('p1'));
    await w.consumer.stop(); // this file settles its pages itself
  });
  afterAll(async () => {
    await w?.close();
  });

  it('a page waiting for its turn holds no exposure lock, so the page ahead of it writes and commits', async () => {
    const db = w.t.deps.database.db;
    const e = await w.newEvent(1);
    const ids = await insertBets(w.t.deps.database, {
      whiteLabelId,
      legs: [{ eventId: e, marketId: '1', oddId: '1', odds: '2.5' }],
      count: 2,
      state: 'hold_requested',
    });
    // both bets carry exposure on the same outcome, so each one's settlement goes through the exposure lock
    await insertBetExposure(
      db,
      ids.map((id) => ({
        bet_id: id,
        idx: 0,
        white_label_id: whiteLabelId,
        phase: 'prematch' as const,
        sport_event_id: e,
        market_id: '1',
        odd_id: '1',
        market_type_id: '1',
        amount: '15.000000',
        eur_rate: '1',
      })),
    );
    await sql`update bet set state = 'accepted', decided_at = created_at where id = any(${ids}::uuid[])`.execute(
      db,
    );
    const exposure = async () =>
      (
        await sql<{ amount: string }>`select amount::text as amount from risk_exposure
          where white_label_id = ${whiteLabelId} and sport_event_id = ${e}`.execute(db)
      ).rows.map((r) => r.amount);
    expect(await exposure()).toEqual(['30.000000']);

    const deps = settlementDeps(w.t.deps);
    const step = (turn?: Promise<void>) => ({
      cause: 'test:pages',
      limits: new Map(),
      transform: (_bet: unknown, s: Parameters<Parameters<typeof applyPage>[2]['transform']>[1]) => ({
        ...s,
        status: ODD_STATUS.WIN,
        result_source: 'feed' as const,
      }),
      ...(turn ? { turn } : {}),
    });
    const key = (id: string) => ({ betId: id, idx: 0, whiteLabelId, currency: 'EUR' });
    const [first, second] = ids as [string, string];

    if (w.t.deps.database.kind === 'pglite') {
      // one connection: the pages run one after the other
      await applyPage(deps, [key(first)], step());
      await applyPage(deps, [key(second)], step());
    } else {
      // the second page reaches its turn first; the first page then runs while it waits
      let reached = false;
      let release!: () => void;
      const firstDone = new Promise<void>((r) => {
        release = r;
      });
      const turn: Promise<void> = {
        // biome-ignore lint/suspicious/noThenProperty: a turn that reports when the page starts waiting for it
        then(onFulfilled, onRejected) {
          reached = true;
          return firstDone.then(onFulfilled, onRejected);
        },
        catch: (f) => firstDone.catch(f),
        finally: (f) => firstDone.finally(f),
        [Symbol.toStringTag]: 'Promise',
      };
      const secondPage = applyPage(deps, [key(second)], step(turn));
      try {
        await waitUntil(async () => reached);
        // waiting for its turn, the second page holds no advisory lock (the exposure lock is the only one); only this
        // test's database counts (other test files share the Postgres server, and their locks are theirs)
        const held = await sql<{ n: string }>`select count(*)::text as n from pg_locks
          where locktype = 'advisory' and granted
            and database = (select oid from pg_database where datname = current_database())`.execute(db);
        expect(held.rows[0]?.n).toBe('0');
        await applyPage(deps, [key(first)], step());
      } finally {
        release();
      }
      await secondPage;
    }

    // both bets settled once, and their exposure is gone
    const states = await sql<{ state: string; n: string }>`select state, count(*)::text as n from bet
      where id = any(${ids}::uuid[]) group by state`.execute(db);
    expect(states.rows).toEqual([{ state: 'settled', n: '2' }]);
    expect(await exposure()).toEqual(['0.000000']);
  });
});
