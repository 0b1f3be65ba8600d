import { isCallbackBody } from '@bookie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../../testing/partner.js';
import { refetchSportEvent } from '../../trading/refetch-sport-event.js';
import { updateFixture } from '../../trading/update-fixture.js';
import { firstOddWon, type SettlementWorld, settlementWorld } from '../settlement.testing.js';

/**
 * Every odd status 0–7 (dead heat included) in singles, expresses and systems, through the real consumer: trading
 * commands append entries to the log, the consumer settles, the dispatcher delivers to a scripted partner.
 */
describe(`settlement of every odd status (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let session: string;

  beforeAll(async () => {
    w = await settlementWorld();
    session = (await w.newPlayer('p1')).session;
  });
  afterAll(async () => {
    await w?.close();
  });

  const body = (c: { json: Record<string, unknown> }) => c.json as Record<string, unknown>;
  const oddStatuses = (c: { json: Record<string, unknown> }) =>
    (c.json.bet_odds as Array<{ odd_status: number; status_reason: string }>).map((o) => [
      o.odd_status,
      o.status_reason,
    ]);

  it('settles singles on statuses 1–6, a dead heat, leaves 0 open, and refunds manually (7)', async () => {
    const e = await w.newEvent(5);
    const bets = {
      win: await w.place(session, { selections: [w.sel(e, '1', '1')] }),
      loss: await w.place(session, { selections: [w.sel(e, '1', '2')] }),
      halfWin: await w.place(session, { selections: [w.sel(e, '2', '1')] }),
      halfLoss: await w.place(session, { selections: [w.sel(e, '2', '2')] }),
      refunded: await w.place(session, { selections: [w.sel(e, '3', '1')] }),
      cancelled: await w.place(session, { selections: [w.sel(e, '3', '2')] }),
      deadHeat: await w.place(session, { selections: [w.sel(e, '4', '1')] }),
      open: await w.place(session, { selections: [w.sel(e, '4', '3')] }),
      manual: await w.place(session, { selections: [w.sel(e, '5', '1')] }),
    };
    await w.result(e, [
      firstOddWon('1'),
      {
        id: '2',
        odds: [
          { id: '1', status: 3 },
          { id: '2', status: 4 },
          { id: '3', status: 2 },
        ],
      },
      {
        id: '3',
        odds: [
          { id: '1', status: 5 },
          { id: '2', status: 6 },
          { id: '3', status: 5 },
        ],
      },
    ]);
    // the dead heat travels in the event meta (the odd object of the feed is closed): meta/dead_heat/<m>/<o>
    await w.change(e, {
      'meta/dead_heat/4/1': '0.5',
      'markets/4/odds/1/status': 1,
      'markets/4/odds/2/status': 2,
    });

    const expected: Record<string, [string, number, number]> = {
      win: ['15.000000', 1, 3],
      loss: ['0.000000', 3, 3],
      halfWin: ['12.500000', 1, 3],
      halfLoss: ['5.000000', 3, 3],
      refunded: ['10.000000', 2, 5],
      cancelled: ['10.000000', 2, 5],
      deadHeat: ['7.500000', 3, 3],
    };
    for (const [name, [amount, type, status]] of Object.entries(expected)) {
      const id = bets[name as keyof typeof bets].id;
      const [settle] = await w.settlementsFor(id, 1);
      expect(settle!.path, name).toBe('/bet/settle');
      expect(isCallbackBody('settle', settle!.json), name).toBe(true);
      expect(body(settle!), name).toMatchObject({
        settle_amount: amount,
        settle_type: type,
        restrictions: [],
      });
      const view = await w.bet(session, id);
      expect(view, name).toMatchObject({
        status,
        state: 'settled',
        settle_amount: amount,
        settle_type: type,
      });
    }
    const [dh] = w.settlementsOf(bets.deadHeat.id);
    expect(oddStatuses(dh!)).toEqual([[1, '']]);
    const [cancelled] = w.settlementsOf(bets.cancelled.id);
    expect(oddStatuses(cancelled!)).toEqual([[6, '']]);

    // status 0: the market is partly resulted, this odd is not — the bet stays accepted, with no callback
    expect(await w.bet(session, bets.open.id)).toMatchObject({ status: 1, state: 'accepted', payout: null });
    expect(await w.outboxOf(bets.open.id)).toEqual([]);

    // status 7: refunded manually by the operator (admin API), bet status 6
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/admin/bets/${bets.manual.id}/refund`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ reason: 'goodwill' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: 'refund', transition: 'settled', bet: { status: 6 } });
    const [manual] = await w.settlementsFor(bets.manual.id, 1);
    expect(body(manual!)).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });
    expect(oddStatuses(manual!)).toEqual([[7, 'goodwill']]);
    // the feed no longer changes a selection the operator decided
    await w.result(e, [{ id: '5', odds: [{ id: '1', status: 2 }] }]);
    expect(await w.bet(session, bets.manual.id)).toMatchObject({ status: 6, settle_amount: '10.000000' });
    expect(await w.outboxOf(bets.manual.id)).toHaveLength(1);
  });

  it('settles expresses and systems on mixed statuses, market and fixture cancellations', async () => {
    const [e1, e2, e3, e4, e5] = [
      await w.newEvent(2),
      await w.newEvent(1),
      await w.newEvent(1),
      await w.newEvent(1),
      await w.newEvent(1),
    ] as [string, string, string, string, string];
    const express = (...sels: ReturnType<typeof w.sel>[]) =>
      w.place(session, { bet_type: 'express', selections: sels });
    const system = (...sels: ReturnType<typeof w.sel>[]) =>
      w.place(session, { bet_type: 'system', system_sizes: [2], selections: sels });
    const bets = {
      // win 1.5 × half win (2.5+1)/2 × refunded 1
      x1: await express(w.sel(e1, '1', '1'), w.sel(e2, '1', '2'), w.sel(e3, '1', '3')),
      // win × loss
      x2: await express(w.sel(e1, '1', '1'), w.sel(e2, '1', '1')),
      // win 1.5 × half loss 1/2 × dead-heat win 1.5·0.5
      x3: await express(w.sel(e1, '1', '1'), w.sel(e2, '1', '3'), w.sel(e3, '1', '1')),
      // market cancelled (6) × refunded (5): every leg void
      x4: await express(w.sel(e1, '2', '1'), w.sel(e3, '1', '3')),
      // win × fixture cancelled (5)
      x5: await express(w.sel(e1, '1', '1'), w.sel(e4, '1', '2')),
      // win × never resulted (0)
      x6: await express(w.sel(e1, '1', '1'), w.sel(e5, '1', '1')),
      // 2/3: (1.5·1.75 + 1.5·0.75 + 1.75·0.75) × 10/3
      s1: await system(w.sel(e1, '1', '1'), w.sel(e2, '1', '2'), w.sel(e3, '1', '1')),
      // 2/3 with a loss: (0 + 1.5·1 + 0) × 10/3
      s2: await system(w.sel(e1, '1', '1'), w.sel(e2, '1', '1'), w.sel(e3, '1', '3')),
      // 2/3 with a cancelled leg and a loss: (1.5·1 + 0 + 0) × 10/3
      s3: await system(w.sel(e1, '1', '1'), w.sel(e4, '1', '3'), w.sel(e2, '1', '1')),
    };
    await w.result(e1, [firstOddWon('1'), { id: '2', status: 4 }]);
    await w.result(e2, [
      {
        id: '1',
        odds: [
          { id: '1', status: 2 },
          { id: '2', status: 3 },
          { id: '3', status: 4 },
        ],
      },
    ]);
    await w.change(e3, {
      'meta/dead_heat/1/1': '0.5',
      'markets/1/odds/1/status': 1,
      'markets/1/odds/2/status': 6,
      'markets/1/odds/3/status': 5,
    });
    const v = (await w.trading(updateFixture(w.t.deps, { id: e4, body: { status: 5 } }))).version;
    await w.consumer.waitFor(v);

    const expected: Record<string, [string, number, number]> = {
      x1: ['26.250000', 1, 3],
      x2: ['0.000000', 3, 3],
      x3: ['5.625000', 3, 3],
      x4: ['10.000000', 2, 5],
      x5: ['15.000000', 1, 3],
      s1: ['16.875000', 1, 3],
      s2: ['5.000000', 3, 3],
      s3: ['5.000000', 3, 3],
    };
    for (const [name, [amount, type, status]] of Object.entries(expected)) {
      const id = bets[name as keyof typeof bets].id;
      const [settle] = await w.settlementsFor(id, 1);
      expect(body(settle!), name).toMatchObject({ settle_amount: amount, settle_type: type });
      expect(await w.bet(session, id), name).toMatchObject({ status, settle_amount: amount });
    }
    expect(oddStatuses(w.settlementsOf(bets.x4.id)[0]!)).toEqual([
      [6, 'market_cancelled'],
      [5, ''],
    ]);
    expect(oddStatuses(w.settlementsOf(bets.x5.id)[0]!)).toEqual([
      [1, ''],
      [5, 'fixture_cancelled'],
    ]);
    // a leg still at 0: the express waits, its resulted leg already shows its status
    const open = await w.bet(session, bets.x6.id);
    expect(open).toMatchObject({ status: 1, state: 'accepted' });
    expect(open.selections.map((s) => s.status)).toEqual([1, 0]);
    expect(await w.outboxOf(bets.x6.id)).toEqual([]);

    // re-sent snapshots and unrelated changes settle nothing again (idempotent)
    const before = w.partner.received.length;
    for (const e of [e1, e2, e3, e4]) {
      const r = await w.trading(refetchSportEvent(w.t.deps, { id: e }));
      await w.consumer.waitFor(r.version);
    }
    await w.result(e1, [{ id: '1', odds: [{ id: '1', value: '1.9' }] }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(w.partner.received.length).toBe(before);
    for (const name of Object.keys(expected)) {
      expect(await w.outboxOf(bets[name as keyof typeof bets].id), name).toHaveLength(1);
    }
  });

  it("caps a payout at the white label's max payout as it is at settlement", async () => {
    const capped = await w.newPlayer('p-capped', {
      limits: { min_stake: null, max_stake: null, max_payout: '100' },
    });
    const e = await w.newEvent(1);
    const b = await w.place(capped.session, { stake: '25', selections: [w.sel(e, '1', '3')] });
    // the operator lowers the white label's max payout after the bet was accepted
    await w.t.deps.database.db
      .updateTable('white_label')
      .set({ max_payout: '80' })
      .where('id', '=', capped.whiteLabelId)
      .execute();
    await new Promise((r) => setTimeout(r, 1100)); // the white-label cache lives 1 s
    await w.result(e, [{ id: '1', odds: [{ id: '3', status: 1 }] }]);
    const [settle] = await w.settlementsFor(b.id, 1);
    expect(body(settle!)).toMatchObject({ settle_amount: '80.000000', settle_type: 1 });
  });

  it('describes the selections as they are at settlement: current match status, update time and state', async () => {
    const e = await w.newEvent(1);
    const b = await w.place(session, { selections: [w.sel(e, '1', '1')] });
    await w.trading(updateFixture(w.t.deps, { id: e, body: { status: 1 } }));
    await w.trading(updateFixture(w.t.deps, { id: e, body: { status: 3 } }));
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    const [settle] = await w.settlementsFor(b.id, 1);
    const odd = (body(settle!).bet_odds as Array<Record<string, unknown>>)[0]!;
    const now = w.t.deps.feed.catalog.getEvent(e)!;
    expect(odd).toMatchObject({
      match_status: 3,
      odd_updated_at: new Date(now.updated_at).toISOString().replace('Z', '+00:00'),
      meta: expect.objectContaining({ sport_event_info_state: 'prematch' }),
    });
    // placement's callbacks keep what the bet was placed on
    const placed = w.partner.received.find((c) => c.path === '/bet/place' && c.json.bet_id === b.id)!;
    expect((placed.json.bet_odds as Array<Record<string, unknown>>)[0]).toMatchObject({ match_status: 0 });
  });
});
