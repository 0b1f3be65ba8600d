import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementDeps } from '../../../app/module-deps.js';
import { waitUntil } from '../../../testing/scripted-partner.js';
import { recordBetRollback } from '../../trading/record-bet-rollback.js';
import { SWEEP_OVERLAP_MS, sweepAcceptedBets } from '../consumer/sweep.js';
import type { ConsumerDeps } from '../deps.js';
import { firstOddWon, insertBets, type SettlementWorld, settlementWorld } from '../settlement.testing.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`bet rollbacks and late acceptances (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let session: string;
  let whiteLabelId: string;

  beforeAll(async () => {
    w = await settlementWorld();
    ({ session, whiteLabelId } = await w.newPlayer('p1'));
  });
  afterAll(async () => {
    await w?.close();
  });

  async function rollback(event: string, body: { market_ids: string[]; dt_start: string; dt_end: string }) {
    const r = await w.trading(
      recordBetRollback(w.t.deps, { id: event, body: { reason: 'technical_error_in_coefficient', ...body } }),
    );
    await w.consumer.waitFor(r.version);
  }

  it('rolls back the bets of a window — settled, open and express ones — and not the others', async () => {
    const e = await w.newEvent(3);
    const e2 = await w.newEvent(1);
    const before = await w.place(session, { selections: [w.sel(e, '1', '1')] });
    await pause(30);
    const dtStart = new Date().toISOString();
    const lost = await w.place(session, { selections: [w.sel(e, '1', '2')] });
    const otherMarket = await w.place(session, { selections: [w.sel(e, '2', '1')] });
    const express = await w.place(session, {
      bet_type: 'express',
      selections: [w.sel(e, '1', '1'), w.sel(e2, '1', '1')],
    });
    const open = await w.place(session, { selections: [w.sel(e, '3', '1')] });
    await pause(30);
    const dtEnd = new Date().toISOString();
    await pause(30);
    const after = await w.place(session, { selections: [w.sel(e, '1', '1')] });

    await w.result(e, [firstOddWon('1'), { id: '2', odds: [{ id: '1', status: 1 }] }]);
    await w.settlementsFor(lost.id, 1);
    expect(w.settlementsOf(lost.id)[0]!.json).toMatchObject({ settle_amount: '0.000000', settle_type: 3 });

    // market 1 only, within [dt_start, dt_end]
    await rollback(e, { market_ids: ['1'], dt_start: dtStart, dt_end: dtEnd });
    // a settled bet in the window: unsettle its 0, settle the stake (refund) with the reason on the selection
    const chain = await w.settlementsFor(lost.id, 3);
    expect(chain.map((c) => [c.path, c.json.settle_amount ?? c.json.unsettle_amount])).toEqual([
      ['/bet/settle', '0.000000'],
      ['/bet/unsettle', '0.000000'],
      ['/bet/settle', '10.000000'],
    ]);
    expect(chain[2]!.json).toMatchObject({ settle_type: 2 });
    expect((chain[2]!.json.bet_odds as Array<Record<string, unknown>>)[0]).toMatchObject({
      odd_status: 6,
      status_reason: 'technical_error_in_coefficient',
    });
    expect(await w.bet(session, lost.id)).toMatchObject({ status: 5, settle_type: 2 });
    // an express in the window: its leg on market 1 is cancelled (factor 1); it waits for its other leg
    const x = await w.bet(session, express.id);
    expect(x).toMatchObject({ state: 'accepted' });
    expect(x.selections.map((s) => s.status)).toEqual([6, 0]);
    // outside the window, or on another market: untouched
    for (const b of [before, after, otherMarket]) {
      const s = await w.settlementsFor(b.id, 1);
      expect(s.map((c) => c.path)).toEqual(['/bet/settle']);
      expect(s[0]!.json).toMatchObject({ settle_amount: '15.000000' });
    }
    expect(await w.outboxOf(open.id)).toEqual([]);

    await w.result(e2, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    const [xs] = await w.settlementsFor(express.id, 1);
    expect(xs!.json).toMatchObject({ settle_amount: '15.000000', settle_type: 1 });

    // no market ids: every market of the event; a later odd status does not undo the rollback
    await rollback(e, { market_ids: [], dt_start: dtStart, dt_end: dtEnd });
    const om = await w.settlementsFor(otherMarket.id, 3);
    expect(om.map((c) => c.path)).toEqual(['/bet/settle', '/bet/unsettle', '/bet/settle']);
    expect(om[2]!.json).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });
    await w.result(e, [{ id: '3', odds: [{ id: '1', status: 1 }] }]);
    const [o] = await w.settlementsFor(open.id, 1);
    expect(o!.json).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });
    expect(await w.outboxOf(open.id)).toHaveLength(1);
    // replaying the same rollback changes nothing
    const sent = w.partner.received.length;
    await rollback(e, { market_ids: [], dt_start: dtStart, dt_end: dtEnd });
    await pause(200);
    expect(w.partner.received.length).toBe(sent);
  });

  it('catches a bet accepted after its rollback was applied, inside the window (sweep)', async () => {
    const e = await w.newEvent(1);
    const dtStart = new Date(Date.now() - 60_000).toISOString();
    const dtEnd = new Date(Date.now() + 60_000).toISOString();
    await rollback(e, { market_ids: [], dt_start: dtStart, dt_end: dtEnd });
    const late = await w.place(session, { selections: [w.sel(e, '1', '2')] });
    // the sweep looks at a frame bet once its placement deadline passed (brought near; a deadline moved into a window
    // a sweep has passed would never be looked at)
    await w.t.deps.database.db
      .updateTable('bet')
      .set({ placement_deadline: new Date(Date.now() + 1_000) })
      .where('id', '=', late.id)
      .execute();
    const [s] = await w.settlementsFor(late.id, 1);
    expect(s!.json).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });
    expect((s!.json.bet_odds as Array<Record<string, unknown>>)[0]).toMatchObject({ odd_status: 6 });
  });

  it('settles a bet accepted while its market was being resulted (sweep)', async () => {
    const e = await w.newEvent(1);
    // a placement still waiting for its hold when the result arrives: the batch skips it
    const [id] = await insertBets(w.t.deps.database, {
      whiteLabelId,
      legs: [{ eventId: e, marketId: '1', oddId: '1', odds: '1.5' }],
      count: 1,
      state: 'hold_requested',
    });
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    expect(await w.outboxOf(id!)).toEqual([]);
    // … then its acceptance commits, well before its deadline
    await w.t.deps.database.db
      .updateTable('bet')
      .set({ state: 'accepted', decided_at: new Date() })
      .where('id', '=', id!)
      .execute();
    // the sweep looks at it once its deadline passed (brought near; a deadline moved into a window a sweep has
    // passed would never be looked at)
    await w.t.deps.database.db
      .updateTable('bet')
      .set({ placement_deadline: new Date(Date.now() + 1_000) })
      .where('id', '=', id!)
      .execute();
    await waitUntil(async () => (await w.outboxOf(id!)).length === 1);
    const [row] = await w.outboxOf(id!);
    expect(JSON.parse(row!.body)).toMatchObject({ settle_amount: '15.000000', settle_type: 1 });
  });

  it('looks at a reported bet accepted while its market was being resulted once its decision is the overlap old (sweep)', async () => {
    const e = await w.newEvent(1);
    const [id] = await insertBets(w.t.deps.database, {
      whiteLabelId,
      legs: [{ eventId: e, marketId: '1', oddId: '1', odds: '1.5' }],
      count: 1,
      state: 'hold_requested',
    });
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    expect(await w.outboxOf(id!)).toEqual([]);
    // reported (decided at its deadline) a second ago, its insert committed after the result was applied
    const decided = Date.now() - 1_000;
    await w.t.deps.database.db
      .updateTable('bet')
      .set({
        state: 'accepted',
        source: 'mts',
        decided_at: new Date(decided),
        placement_deadline: new Date(decided),
      })
      .where('id', '=', id!)
      .execute();
    const deps = settlementDeps(w.t.deps) as ConsumerDeps;
    const state = { from: decided - 5_000, moveFrom: () => {}, fence: async () => {}, count: () => {} };
    // a sweep now leaves it for later: its decision is younger than the overlap
    await sweepAcceptedBets(deps, state);
    expect(await w.outboxOf(id!)).toEqual([]);
    // the same window swept once the decision is the overlap old examines and settles it
    await sweepAcceptedBets({ ...deps, clock: { now: () => Date.now() + SWEEP_OVERLAP_MS } }, state);
    await waitUntil(async () => (await w.outboxOf(id!)).length === 1);
    const [row] = await w.outboxOf(id!);
    expect(JSON.parse(row!.body)).toMatchObject({ settle_amount: '15.000000', settle_type: 1 });
  });

  it('a bet still placing at its deadline holds the sweep there; accepted later, the next sweep settles it', async () => {
    const e = await w.newEvent(1);
    const [id] = await insertBets(w.t.deps.database, {
      whiteLabelId,
      legs: [{ eventId: e, marketId: '1', oddId: '1', odds: '1.5' }],
      count: 1,
      state: 'hold_requested',
    });
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    // its deadline passed a minute ago (behind the recovery's mark: this test drives the sweep alone)
    const deadline = Date.now() - 60_000;
    await w.t.deps.database.db
      .updateTable('bet')
      .set({ placement_deadline: new Date(deadline) })
      .where('id', '=', id!)
      .execute();
    const deps = settlementDeps(w.t.deps) as ConsumerDeps;
    const moves: number[] = [];
    const state = {
      from: deadline - 5_000,
      moveFrom: (ms: number) => moves.push(ms),
      fence: async () => {},
      count: () => {},
    };
    await sweepAcceptedBets(deps, state);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toBeLessThan(deadline);
    expect(await w.outboxOf(id!)).toEqual([]);
    // accepted after its deadline: the next sweep, from where the first stopped, examines and settles it
    await w.t.deps.database.db
      .updateTable('bet')
      .set({ state: 'accepted', decided_at: new Date() })
      .where('id', '=', id!)
      .execute();
    await sweepAcceptedBets(deps, { ...state, from: moves[0]! });
    await waitUntil(async () => (await w.outboxOf(id!)).length === 1);
  });
});
