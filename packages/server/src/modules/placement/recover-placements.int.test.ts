import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { insertBets } from '../settlement/settlement.testing.js';
import { recoverPlacements } from './recover-placements.js';

/**
 * The recovery reads bets by their placement deadline from a mark it keeps (docs/adr/0058-bet-hot-transitions.md):
 * the mark never passes a stuck bet a run did not claim, so a run cut short by its limit leaves the rest to the next.
 */
describe(`recovery of interrupted placements (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let d: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    d = await createTestDatabase();
    database = d as unknown as Database;
  });
  afterAll(async () => {
    await d?.close();
  });

  const mark = async () =>
    new Date(
      (await d.db.selectFrom('placement_recovery_mark').select('through').executeTakeFirstOrThrow()).through,
    );

  it('declines the bets stuck past their deadline, a page at a time, and moves its mark behind them', async () => {
    const legs = [{ eventId: 'e1', marketId: '1', oddId: '1', odds: '2' }];
    const stuck = await insertBets(database, {
      whiteLabelId: 'wl1',
      legs,
      count: 3,
      state: 'hold_requested',
    });
    const placing = await insertBets(database, {
      whiteLabelId: 'wl1',
      legs,
      count: 1,
      state: 'hold_requested',
    });
    const decided = await insertBets(database, { whiteLabelId: 'wl1', legs, count: 1 });
    // the stuck ones and a decided one are past their deadline, by more than the recovery's overlap; the placing one
    // is not
    const past = Date.now() - 30_000;
    for (const [i, id] of [...stuck, ...decided].entries()) {
      await d.db
        .updateTable('bet')
        .set({ placement_deadline: new Date(past - 100 * i) })
        .where('id', '=', id)
        .execute();
    }
    const order = [...stuck].reverse(); // earliest deadline first

    expect(await recoverPlacements(database, 2)).toEqual(order.slice(0, 2));
    // the third was beyond the page: the mark stays at or before its deadline
    expect((await mark()).getTime()).toBeLessThanOrEqual(past);
    expect(await recoverPlacements(database, 2)).toEqual(order.slice(2));
    expect(await recoverPlacements(database, 2)).toEqual([]);
    const states = await d.db
      .selectFrom('bet')
      .select(['id', 'state'])
      .where('id', 'in', [...stuck, ...placing, ...decided])
      .execute();
    const stateOf = new Map(states.map((s) => [s.id, s.state]));
    for (const id of stuck) expect(stateOf.get(id)).toBe('force_declined');
    expect(stateOf.get(placing[0] as string)).toBe('hold_requested');
    expect(stateOf.get(decided[0] as string)).toBe('accepted');
    // with nothing stuck the mark follows the clock, an overlap behind
    expect((await mark()).getTime()).toBeGreaterThan(past);
  });
});
