import { randomUUID } from 'node:crypto';
import { add, formatMoney, mul, parseDecimal, type Rational, roundHalfUp } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { scriptedPartner, waitUntil } from '../../testing/scripted-partner.js';

const d = (v: string): Rational => parseDecimal(v, { field: 'x', maxDecimals: 12 });

// Cash-out of bets the partner reports (risk management mode), end to end: the real server as its own process and
// the partner's callback server, which holds the money of the bets it reports and so only hears /bet/settle and
// /bet/unsettle of them — never a /bet/cash-out-orders/* callback: the partner placed the cash-out and knows its
// answer. Platform and foreign cash-out orders share the one stake.
describe(`cash-out of partner-reported bets (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  let partner: Awaited<ReturnType<typeof scriptedPartner>>;
  const auth = () => ({ token: p.accessToken });

  const newEvent = () => newSportEvent(p, 1);

  const published = async (event: string, odd = '1') =>
    (await p.call('GET', `/trading/sport-events/${event}`)).json.sport_event.markets['1'].odds[odd]
      .value as string;

  /** POST /bets as the partner: a single on the event's odd 1 (with foreign selections when given). */
  async function report(event: string, foreign: Array<{ id: string; value: string }> = []) {
    const odds = await published(event);
    const r = await p.call('POST', '/bets', {
      ...auth(),
      body: {
        bet_id: `slip-${randomUUID()}`,
        player_id: 'mts-cash-out',
        type: foreign.length
          ? { code: 1, system_sizes: [1 + foreign.length] }
          : { code: 0, system_sizes: [1] },
        stake: { value: '10', currency_code: 'EUR' },
        selections: [{ sport_event_id: event, market_id: '1', odd_id: '1', value: odds }],
        ...(foreign.length ? { foreign_selections: foreign } : {}),
        odds_strategy: 3,
        created_at: new Date().toISOString(),
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.bet.status.code).toBe(1);
    return { id: r.json.bet.id as string, odds: d(r.json.bet.total_odds) };
  }

  /** Settles the event's market (odd 1 wins) and waits until settlement processed it. */
  async function settleEvent(event: string) {
    const odds = ['1', '2', '3'].map((id) => ({ id, status: id === '1' ? 1 : 2 }));
    const r = await p.call('PATCH', `/trading/sport-events/${event}/markets`, {
      body: { markets: [{ id: '1', odds }] },
    });
    expect(r.status).toBe(200);
    await waitUntil(async () => {
      const s = await p.call('GET', '/admin/settlement/status');
      return s.json.leader && BigInt(s.json.processed) >= BigInt(r.json.version);
    });
  }

  /** The stored exposure (EUR) of the event's outcomes. */
  const exposure = async (event: string): Promise<Rational> => {
    const r = await p.call('GET', `/admin/risk/exposure?sport_event_id=${event}`);
    return (r.json.items as Array<{ exposure_eur: string }>).reduce(
      (a, i) => add(a, d(i.exposure_eur)),
      d('0'),
    );
  };
  const scaled = (v: Rational, f: string) => formatMoney(roundHalfUp(mul(v, d(f)), 6));
  const recompute = async () => {
    const r = await p.call('POST', '/admin/risk/recompute');
    expect(r.json, JSON.stringify(r.json)).toMatchObject({
      ok: true,
      outcome_differences: [],
      bet_differences: [],
    });
  };
  const received = (betId: string) => partner.received.filter((c) => c.json.bet_id === betId);
  /** What the platform queued for the bet: every callback, delivered or not. */
  const queued = async (betId: string) =>
    (
      (await p.call('GET', `/admin/callbacks?bet_id=${betId}&limit=50`)).json.items as Array<{ path: string }>
    ).map((i) => i.path);

  async function calculate(betId: string, amount?: string) {
    const r = await p.call('POST', `/bets/${betId}/cash-out-orders/calculate`, {
      ...auth(),
      body: amount ? { amount } : {},
    });
    expect(r.status).toBe(200);
    return r.json;
  }
  async function cashOut(betId: string, id: string, amount: string) {
    const q = await calculate(betId, amount);
    expect(q.available, JSON.stringify(q)).toBe(true);
    const r = await p.call('POST', `/bets/${betId}/cash-out-orders/place`, {
      ...auth(),
      body: { id, amount, refund_amount: q.refund_amount, quote_id: q.quote_id },
    });
    expect(r.status).toBe(201);
    return r.json.order;
  }
  const foreignOrder = (id: string, code: string, amount: string) => ({
    id,
    amount,
    refund_amount: '2.5',
    status: { code },
    created_at: new Date().toISOString(),
  });
  const patch = (betId: string, orders: unknown[]) =>
    p.call('PATCH', `/bets/${encodeURIComponent(betId)}`, {
      ...auth(),
      body: { foreign_cash_out_orders: orders },
    });

  beforeAll(async () => {
    p = await startPlatform({
      env: {
        PLAYER_RATE_LIMIT: '0',
        DELAY_INSTABILITY_WINDOW_S: '0',
        RISK_SETTINGS_CACHE_MS: '0',
        CALLBACK_POLL_MS: '100',
      },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
    partner = await scriptedPartner();
    const r = await p.call('PATCH', `/admin/white-labels/${p.partner.whiteLabelId}`, {
      body: { callback_url: partner.url },
    });
    expect(r.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    await partner?.close();
  });

  it('a partial cash-out leaves the rest to settle, a cancel settles the whole stake again; a partial then a full one ends the bet; no cash-out callback', async () => {
    const [e1, e2] = [await newEvent(), await newEvent()];
    const a = await report(e1);
    const before = await exposure(e1);
    const partial = await cashOut(a.id, 'mts-a-1', '4');
    expect(partial).toMatchObject({ id: 'mts-a-1', amount: '4.000000', status: { code: 'accepted' } });
    // the exposure follows the stake still in play, exactly as the recompute from the bets finds it
    expect(formatMoney(await exposure(e1))).toBe(scaled(before, '0.6'));
    await recompute();
    expect((await calculate(a.id)).remaining_stake).toBe('6.000000');
    // the player cannot cash out in the frame a bet the partner reported: its money is at the partner
    const player = await p.session('mts-cash-out');
    const frame = await p.call('POST', `/frame-api/bets/${encodeURIComponent(a.id)}/cash-out/calculate`, {
      token: player,
      body: {},
    });
    expect(frame.status).toBe(404);
    // nor does the frame's history list it
    expect((await p.call('GET', '/frame-api/bets', { token: player })).json.items).toEqual([]);

    const b = await report(e2);
    await cashOut(b.id, 'mts-b-1', '3');
    const full = await cashOut(b.id, 'mts-b-2', '7');
    expect(full.status.code).toBe('accepted');
    const got = await p.call('GET', `/bets/${encodeURIComponent(b.id)}`, auth());
    expect(got.json.status.code).toBe(7);
    expect(formatMoney(await exposure(e2))).toBe('0.000000');
    await recompute();

    // both events settle with the bets' selections winning: the partial bet is paid on its remaining 6, the
    // cashed-out one on nothing
    await settleEvent(e2);
    await settleEvent(e1);
    await waitUntil(() => received(a.id).length === 1);
    expect(received(a.id)[0]).toMatchObject({
      path: '/bet/settle',
      json: { settle_amount: formatMoney(roundHalfUp(mul(d('6'), a.odds), 3)) },
    });
    expect(received(b.id)).toEqual([]);
    expect(await queued(b.id)).toEqual([]);
    // the partner takes its partial order back: the bet settles again on its whole stake, still without a cash-out
    // callback
    const cancel = await p.call('PATCH', `/bets/${a.id}/cash-out-orders/mts-a-1/cancel`, auth());
    expect(cancel.status).toBe(200);
    expect(cancel.json.order.status).toEqual({ code: 'declined', reason: 'cancelled_by_partner' });
    await waitUntil(() => received(a.id).length === 3);
    expect(received(a.id).map((c) => [c.path, c.json.settle_amount ?? c.json.unsettle_amount])).toEqual([
      ['/bet/settle', formatMoney(roundHalfUp(mul(d('6'), a.odds), 3))],
      ['/bet/unsettle', formatMoney(roundHalfUp(mul(d('6'), a.odds), 3))],
      ['/bet/settle', formatMoney(roundHalfUp(mul(d('10'), a.odds), 3))],
    ]);
    // the partner was never called about the cash-outs: it placed them and holds the money
    for (const bet of [a.id, b.id]) {
      expect(received(bet).filter((c) => c.path.startsWith('/bet/cash-out-orders'))).toEqual([]);
      expect((await queued(bet)).filter((x) => x.startsWith('/bet/cash-out-orders'))).toEqual([]);
    }
  }, 120_000);

  it('foreign then platform cash-out share the stake; exposure follows both; settlement pays what remains', async () => {
    const e = await newEvent();
    const c = await report(e);
    const before = await exposure(e);
    // pending changes nothing, accepted takes 3 of the stake out of play, exposure included
    expect((await patch(c.id, [foreignOrder('f-1', 'pending', '3')])).status).toBe(200);
    expect(formatMoney(await exposure(e))).toBe(formatMoney(before));
    const accepted = await patch(c.id, [foreignOrder('f-1', 'accepted', '3')]);
    expect(accepted.status).toBe(200);
    expect(formatMoney(await exposure(e))).toBe(scaled(before, '0.7'));
    await recompute();
    // a declined order changes nothing
    const declined = await patch(c.id, [foreignOrder('f-2', 'declined', '5')]);
    expect(declined.status).toBe(200);
    expect(formatMoney(await exposure(e))).toBe(scaled(before, '0.7'));
    expect((await calculate(c.id)).remaining_stake).toBe('7.000000');

    // the platform's cash-out takes from the remaining 7 only
    expect(await calculate(c.id, '7.5')).toMatchObject({ available: false, reason: 'amount_too_large' });
    const tooLarge = await p.call('POST', `/bets/${c.id}/cash-out-orders/place`, {
      ...auth(),
      body: { id: 'c-big', amount: '7.5', refund_amount: '1' },
    });
    expect(tooLarge.json.order.status).toEqual({ code: 'declined', reason: 'amount_too_large' });
    await cashOut(c.id, 'c-1', '2');
    expect(formatMoney(await exposure(e))).toBe(scaled(before, '0.5'));
    await recompute();
    // and a foreign order cannot take more than the platform left: 3 + 2 + 5.000001 > 10
    const over = await patch(c.id, [foreignOrder('f-3', 'accepted', '5.000001')]);
    expect(over.status).toBe(400);
    expect(over.json.error.details.field).toBe('foreign_cash_out_orders');

    await settleEvent(e);
    await waitUntil(() => received(c.id).length === 1);
    expect(received(c.id)[0]).toMatchObject({
      path: '/bet/settle',
      json: { settle_amount: formatMoney(roundHalfUp(mul(d('5'), c.odds), 3)) },
    });
    expect((await queued(c.id)).filter((x) => x.startsWith('/bet/cash-out-orders'))).toEqual([]);
  }, 120_000);

  it('a mixed combo cashes out only through foreign orders, its exposure following them; the rest of a stake the platform cashed out in part ends the bet', async () => {
    const e = await newEvent();
    const mixed = await report(e, [{ id: 'ext-1', value: '2' }]);
    // the platform cannot value a foreign leg: no platform cash-out while it is open, to calculate or place
    const refused = async (id: string) => {
      expect(await calculate(mixed.id)).toMatchObject({
        available: false,
        reason: 'foreign_selections',
        refund_amount: '0.000000',
      });
      expect(await calculate(mixed.id, '1')).toMatchObject({
        available: false,
        reason: 'foreign_selections',
      });
      const placed = await p.call('POST', `/bets/${mixed.id}/cash-out-orders/place`, {
        ...auth(),
        body: { id, amount: '1', refund_amount: '0.5' },
      });
      expect(placed.json.order.status).toEqual({ code: 'declined', reason: 'foreign_selections' });
    };
    await refused('mixed-open');
    const before = await exposure(e);
    expect((await patch(mixed.id, [foreignOrder('m-1', 'accepted', '4')])).status).toBe(200);
    expect(formatMoney(await exposure(e))).toBe(scaled(before, '0.6'));
    await recompute();
    // nor once the partner resulted it (won): the bet still has a foreign selection, before any other reason
    const resulted = await p.call('PATCH', `/bets/${encodeURIComponent(mixed.id)}`, {
      ...auth(),
      body: { foreign_selections: [{ id: 'ext-1', status: 1 }] },
    });
    expect(resulted.status).toBe(200);
    await refused('mixed-resulted');
    // an amount above the stake left is refused for the foreign selection first
    expect(await calculate(mixed.id, '100')).toMatchObject({
      available: false,
      reason: 'foreign_selections',
    });
    expect(formatMoney(await exposure(e))).toBe(scaled(before, '0.6'));

    const e2 = await newEvent();
    const bet = await report(e2);
    await cashOut(bet.id, 'p-1', '4');
    const rest = await patch(bet.id, [foreignOrder('f-rest', 'accepted', '6')]);
    expect(rest.json.transition).toBe('cashed_out');
    expect(rest.json.bet.status.code).toBe(7);
    expect(formatMoney(await exposure(e2))).toBe('0.000000');
    await recompute();
  }, 120_000);
});
