import { add, formatMoney, parseDecimal, type Rational } from '@bookie/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer as bearerHeader, injectJson } from '../../testing/inject.js';
import { TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

const d = (v: string): Rational => parseDecimal(v, { field: 'x', maxDecimals: 12 });

// The cash-out line of the operator's reconciliation report, through the real app (in-process HTTP, the callback
// dispatcher, a partner callback server): the orders accepted per white label and currency, and for frame bets that
// each order's payment reached the wallet with the order's amount.
describe(`reconciliation report: cash-out (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let wl: string;
  let token: string;
  let session: string;
  const from = new Date(Date.now() - 60_000).toISOString();

  beforeAll(async () => {
    w = await settlementWorld({
      env: { CASH_OUT_MARGIN: '0.05', PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0' },
    });
    ({ whiteLabelId: wl, token, session } = await w.newPlayer('co'));
  });
  afterAll(async () => {
    await w?.close();
  });

  async function call(bearer: string, method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await injectJson(w.t.app, method, url, body, bearerHeader(bearer));
    return {
      status: res.statusCode,
      json: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : undefined,
      text: res.body,
    };
  }
  /** A cash-out of `amount` at the quoted refund; returns the refund. */
  async function cashOut(betId: string, id: string, amount: string): Promise<string> {
    const q = await call(token, 'POST', `/bets/${betId}/cash-out-orders/calculate`, { amount });
    expect(q.json.available, JSON.stringify(q.json)).toBe(true);
    const r = await call(token, 'POST', `/bets/${betId}/cash-out-orders/place`, {
      id,
      amount,
      refund_amount: q.json.refund_amount,
      quote_id: q.json.quote_id,
    });
    expect(r.json.order.status.code).toBe('accepted');
    return q.json.refund_amount;
  }
  const report = async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    const r = await call(TEST_ADMIN_TOKEN, 'GET', `/admin/reports/reconcile?from=${from}&to=${to}`);
    expect(r.status).toBe(200);
    return {
      line: r.json.totals.find((t: { white_label_id: string }) => t.white_label_id === wl),
      json: r.json,
    };
  };
  const accepted = (bet: string) =>
    w.t.deps.database.db
      .selectFrom('callback_delivery')
      .select(['id', 'status'])
      .where('bet_id', '=', bet)
      .where('path', '=', '/bet/cash-out-orders/accepted')
      .execute();

  it('counts the orders accepted and checks that frame bets were paid through the callback; a payment that did not arrive or differs is a mismatch', async () => {
    const e = await w.newEvent(1);
    const a = await w.place(session, { selections: [w.sel(e, '1', '1')] });
    const b = await w.place(session, { selections: [w.sel(e, '1', '2')] });
    // a bet the partner reports: cashed out on the platform, paid by the partner (no callback)
    const reported = await call(token, 'POST', '/bets', {
      bet_id: 'slip-reconcile',
      player_id: 'co',
      type: { code: 0, system_sizes: [1] },
      stake: { value: '10', currency_code: 'EUR' },
      selections: [{ sport_event_id: e, market_id: '1', odd_id: '3', value: '1.01' }],
      odds_strategy: 3,
      created_at: new Date().toISOString(),
    });
    expect(reported.json.bet.status.code).toBe(1);

    const paidA = await cashOut(a.id, 'a-1', '4');
    const paidB = await cashOut(b.id, 'b-1', '10');
    const paidM = await cashOut('slip-reconcile', 'm-1', '3');
    await waitUntil(async () =>
      (await Promise.all([accepted(a.id), accepted(b.id)])).every(
        (rows) => rows.length === 1 && rows[0]?.status === 'delivered',
      ),
    );
    const through = formatMoney(add(d(paidA), d(paidB)));
    const clean = await report();
    expect(clean.line).toMatchObject({
      currency: 'EUR',
      cash_outs: 3,
      cash_out_stake: '17.000000',
      cash_out_paid: formatMoney(add(d(through), d(paidM))),
      cash_outs_through_callbacks: 2,
      cash_out_callbacks_delivered: 2,
      cash_out_callbacks_paid: through,
      cash_out_callbacks_pending: 0,
      cash_out_mismatches: 0,
    });
    expect(clean.json.cash_outs).toEqual({ mismatched: 0, mismatches: [] });
    // the wallet got exactly the two frame bets' payments
    const received = w.partner
      .at('/bet/cash-out-orders/accepted')
      .map((c) => [c.json.cash_out_order_id, c.json.refund_amount]);
    expect(received.sort()).toEqual([
      ['a-1', paidA],
      ['b-1', paidB],
    ]);

    // the wallet never took one payment, and another callback carries an amount other than the order's
    const [rowA] = await accepted(a.id);
    const [rowB] = await accepted(b.id);
    await w.t.deps.database.db
      .updateTable('callback_delivery')
      .set({ status: 'failed' })
      .where('id', '=', rowB!.id)
      .execute();
    await sql`update callback_delivery set body = replace(body, ${`"refund_amount":"${paidA}"`}, '"refund_amount":"0.010000"')
              where id = ${rowA!.id}`.execute(w.t.deps.database.db);
    const broken = await report();
    expect(broken.line).toMatchObject({
      cash_outs: 3,
      cash_out_callbacks_delivered: 0,
      cash_out_mismatches: 2,
    });
    expect(
      broken.json.cash_outs.mismatches.map((m: { cash_out_order_id: string; problem: string }) => [
        m.cash_out_order_id,
        m.problem,
      ]),
    ).toEqual([
      ['a-1', 'amount'],
      ['b-1', 'failed'],
    ]);
    const csv = await call(TEST_ADMIN_TOKEN, 'GET', `/admin/reports/reconcile?from=${from}&format=csv`);
    const [header, ...rows] = csv.text.trim().split('\n');
    expect(header).toContain(',cash_outs,cash_out_stake,cash_out_paid,');
    expect(rows.find((r) => r.startsWith(wl))).toMatch(/,3,17\.000000,[0-9.]+,2,0,0\.000000,0,2$/);
  }, 60_000);
});
