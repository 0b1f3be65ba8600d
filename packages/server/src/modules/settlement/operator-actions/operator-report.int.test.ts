import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SettlementWorld, settlementWorld } from '../settlement.testing.js';

describe(`operator actions and the reconciliation report (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let session: string;
  let whiteLabelId: string;
  const from = new Date(Date.now() - 60_000).toISOString();

  beforeAll(async () => {
    w = await settlementWorld();
    ({ session, whiteLabelId } = await w.newPlayer('p1'));
  });
  afterAll(async () => {
    await w?.close();
  });

  const admin = (method: 'GET' | 'POST', url: string, body?: unknown) => w.admin(method, url, body);
  const amounts = (id: string) =>
    w.settlementsOf(id).map((c) => `${c.path.slice(5)} ${c.json.settle_amount ?? c.json.unsettle_amount}`);

  it('voids, resettles, reinstates and cancels selections, each audited; refuses what it cannot do', async () => {
    const e = await w.newEvent(1);
    const e2 = await w.newEvent(1);
    const a = await w.place(session, { selections: [w.sel(e, '1', '1')] });
    const b = await w.place(session, {
      bet_type: 'express',
      selections: [w.sel(e, '1', '1'), w.sel(e2, '1', '1')],
    });
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await w.settlementsFor(a.id, 1);

    const voided = await admin('POST', `/admin/bets/${a.id}/void`, { reason: 'palpable error' });
    expect(voided.status).toBe(200);
    expect(voided.json).toMatchObject({
      transition: 'resettled',
      callbacks: 2,
      bet: { status: 5, settle_amount: '10.000000' },
    });
    await w.settlementsFor(a.id, 3);
    expect(amounts(a.id)).toEqual(['settle 15.000000', 'unsettle 15.000000', 'settle 10.000000']);
    expect((w.settlementsOf(a.id)[2]!.json.bet_odds as Array<Record<string, unknown>>)[0]).toMatchObject({
      odd_status: 6,
      status_reason: 'palpable error',
    });

    // nothing differs: nothing is sent
    const same = await admin('POST', `/admin/bets/${a.id}/resettle`, { reason: 'check' });
    expect(same.json).toMatchObject({ transition: 'none', callbacks: 0, bet: { status: 5 } });
    // reinstate: the feed's result again
    const back = await admin('POST', `/admin/bets/${a.id}/resettle`, {
      reason: 'void was a mistake',
      reinstate: true,
    });
    expect(back.json).toMatchObject({
      transition: 'resettled',
      bet: { status: 3, settle_amount: '15.000000' },
    });
    await w.settlementsFor(a.id, 5);
    expect(amounts(a.id).slice(3)).toEqual(['unsettle 10.000000', 'settle 15.000000']);

    // cancel one selection of an express: recalculated on the other, which is resulted
    const cancelled = await admin('POST', `/admin/bets/${b.id}/cancel`, {
      reason: 'event moved',
      selections: [1],
    });
    expect(cancelled.json).toMatchObject({
      transition: 'settled',
      bet: { status: 3, settle_amount: '15.000000' },
    });
    expect(cancelled.json.bet.selections.map((s: { status: number }) => s.status)).toEqual([1, 6]);

    const audit = await w.t.deps.database.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject', 'details'])
      .where('subject', 'in', [`bet:${a.id}`, `bet:${b.id}`])
      .orderBy('id')
      .execute();
    expect(audit.map((r) => [r.action, r.actor])).toEqual([
      ['bet.void', 'admin-api:alice'],
      ['bet.resettle', 'admin-api:alice'],
      ['bet.resettle', 'admin-api:alice'],
      ['bet.cancel', 'admin-api:alice'],
    ]);
    expect(audit[3]!.details).toEqual({
      reason: 'event moved',
      selections: [1],
      before: { state: 'accepted', settle_amount: null },
      after: { state: 'settled', settle_amount: '15.000000' },
    });

    // refusals
    expect((await admin('POST', `/admin/bets/${a.id}/refund`, {})).status).toBe(400);
    expect((await admin('POST', `/admin/bets/${a.id}/cancel`, { reason: 'x', selections: [3] })).status).toBe(
      400,
    );
    expect(
      (await admin('POST', '/admin/bets/00000000-0000-4000-8000-000000000000/refund', { reason: 'x' }))
        .status,
    ).toBe(404);
    const declined = await w.tryPlace(session, { selections: [w.sel(e, '1', '1')] });
    expect(declined.json().status).toBe(2); // the odd is resulted: no bets
    const refused = await admin('POST', `/admin/bets/${declined.json().id}/refund`, { reason: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('conflict');
    const unauthorized = await w.t.app.inject({
      method: 'POST',
      url: `/admin/bets/${a.id}/refund`,
      payload: { reason: 'x' },
    });
    expect(unauthorized.statusCode).toBe(401);
  });

  it('unsettles a settled bet whose result goes back to "not resulted" (status 4), and settles it again', async () => {
    const e = await w.newEvent(1);
    const c = await w.place(session, { selections: [w.sel(e, '1', '2')] });
    await w.result(e, [{ id: '1', odds: [{ id: '2', status: 1 }] }]);
    await w.settlementsFor(c.id, 1);
    await w.result(e, [{ id: '1', odds: [{ id: '2', status: 0 }] }]);
    await w.settlementsFor(c.id, 2);
    expect(await w.bet(session, c.id)).toMatchObject({
      status: 4,
      state: 'unsettled',
      payout: null,
      settle_amount: null,
    });
    await w.result(e, [{ id: '1', odds: [{ id: '2', status: 2 }] }]);
    await w.settlementsFor(c.id, 3);
    expect(amounts(c.id)).toEqual(['settle 25.000000', 'unsettle 25.000000', 'settle 0.000000']);
    expect(await w.bet(session, c.id)).toMatchObject({ status: 3, settle_type: 3 });
  });

  it('reports per white label and currency and checks every bet ledger; CSV too', async () => {
    const e = await w.newEvent(1);
    const open = await w.place(session, { stake: '4', selections: [w.sel(e, '1', '3')] });
    const to = new Date(Date.now() + 60_000).toISOString();
    const r = await admin('GET', `/admin/reports/reconcile?from=${from}&to=${to}`);
    expect(r.status).toBe(200);
    const line = r.json.totals.find((t: { white_label_id: string }) => t.white_label_id === whiteLabelId);
    // the bets of this file so far: a (15), b (15), c (0) settled; open (4 at 3.5) open
    const ledger = await w.t.deps.database.db
      .selectFrom('bet_settlement')
      .select(['kind', 'amount'])
      .where('white_label_id', '=', whiteLabelId)
      .execute();
    const sum = (kind: string) =>
      ledger.filter((l) => l.kind === kind).reduce((s, l) => s + Math.round(Number(l.amount) * 1e6), 0) / 1e6;
    expect(line).toMatchObject({
      currency: 'EUR',
      bets_accepted: 4,
      stakes_accepted: '34.000000',
      settles: ledger.filter((l) => l.kind === 'settle').length,
      unsettles: ledger.filter((l) => l.kind === 'unsettle').length,
      net_payout: '30.000000',
      unsettled_bets: 0,
      open_bets: 1,
      open_exposure: '14.000000',
      ledger_mismatches: 0,
    });
    expect(Number(line.settle_amount) - Number(line.unsettle_amount)).toBeCloseTo(
      sum('settle') - sum('unsettle'),
      6,
    );
    expect(r.json.bets).toMatchObject({ checked: 3, mismatched: 0, mismatches: [] });
    expect(open.status).toBe(1);

    const csv = await admin('GET', `/admin/reports/reconcile?from=${from}&to=${to}&format=csv`);
    expect(csv.status).toBe(200);
    const [header, ...rows] = csv.text.trim().split('\n');
    expect(header).toBe(
      'white_label_id,currency,bets_accepted,stakes_accepted,settles,settle_amount,unsettles,unsettle_amount,net_payout,unsettled_bets,open_bets,open_exposure,ledger_mismatches,cash_outs,cash_out_stake,cash_out_paid,cash_outs_through_callbacks,cash_out_callbacks_delivered,cash_out_callbacks_paid,cash_out_callbacks_pending,cash_out_mismatches',
    );
    expect(rows.find((x) => x.startsWith(whiteLabelId))).toContain(',EUR,4,34.000000,');

    // a ledger that does not add up is reported, bet by bet
    const any = await w.t.deps.database.db
      .selectFrom('bet_settlement')
      .select(['bet_id', 'seq'])
      .where('white_label_id', '=', whiteLabelId)
      .where('kind', '=', 'unsettle')
      .executeTakeFirstOrThrow();
    await w.t.deps.database.db
      .updateTable('bet_settlement')
      .set({ amount: '1.000000' })
      .where('bet_id', '=', any.bet_id)
      .where('seq', '=', any.seq)
      .execute();
    const bad = await admin('GET', `/admin/reports/reconcile?from=${from}&to=${to}&bets=true`);
    expect(bad.json.bets.mismatched).toBe(1);
    expect(bad.json.bets.mismatches[0]).toMatchObject({
      bet_id: any.bet_id,
      ok: false,
      problems: ['balance', 'shape'],
    });
    expect(bad.json.bets.rows).toHaveLength(3);
    const perBet = await admin('GET', `/admin/reports/reconcile?from=${from}&to=${to}&bets=true&format=csv`);
    const lines = perBet.text.trim().split('\n');
    expect(lines[0]).toBe(
      'bet_id,white_label_id,currency,state,status,settles,unsettles,settle_sum,unsettle_sum,balance,current_payout,ok,problems',
    );
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(any.bet_id))).toMatch(/,false,balance shape$/);
    expect((await admin('GET', `/admin/reports/reconcile?from=${to}&to=${from}`)).status).toBe(400);

    // a bet whose Foreign-Params name another currency than its own: its money was moved in that one
    await w.t.deps.database.db
      .updateTable('bet')
      .set({ foreign_params: JSON.stringify({ currency: 'USD' }) })
      .where('id', '=', any.bet_id)
      .execute();
    const usd = await admin('GET', `/admin/reports/reconcile?from=${from}&to=${to}`);
    expect(usd.json.bets.mismatches[0]).toMatchObject({
      bet_id: any.bet_id,
      problems: ['balance', 'shape', 'currency'],
    });
  });
});
