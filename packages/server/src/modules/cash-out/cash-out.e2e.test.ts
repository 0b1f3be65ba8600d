import { add, formatMoney, mul, parseDecimal, type Rational, roundHalfUp, sub } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';

const d = (v: string): Rational => parseDecimal(v, { field: 'x', maxDecimals: 12 });
const MARGIN = '0.05';

// The real server and the reference wallet as separate processes, over HTTP: cash-out of frame bets.
describe(`cash-out end to end with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  const partner = () => ({ token: p.accessToken });

  const newEvent = () => newSportEvent(p, 1);

  async function place(token: string, eventId: string) {
    const r = await p.call('POST', '/frame-api/bets', {
      token,
      body: {
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.01' }],
      },
    });
    expect(r.json.status).toBe(1);
    return { id: r.json.id as string, odds: d(r.json.selections?.[0]?.odds ?? r.json.odds) };
  }

  /** The offer the rule gives for `stake` of a single at `odds`: stake × odds × probability × (1 − margin). */
  async function expectedOffer(eventId: string, stake: string, odds: Rational): Promise<string> {
    const ev = (await p.call('GET', `/trading/sport-events/${eventId}`)).json;
    const snap = ev.sport_event;
    const prob = d(snap.markets['1'].odds['1'].probability);
    return formatMoney(roundHalfUp(mul(mul(mul(d(stake), odds), prob), sub(d('1'), d(MARGIN))), 3));
  }

  async function patchMarket(eventId: string, market: Record<string, unknown>) {
    const r = await p.call('PATCH', `/trading/sport-events/${eventId}/markets`, {
      body: { markets: [{ id: '1', ...market }] },
    });
    expect(r.status).toBe(200);
    await waitUntil(async () => {
      const s = await p.call('GET', '/admin/settlement/status');
      return s.json.leader && BigInt(s.json.processed) >= BigInt(r.json.version);
    }, 30_000);
    await delivered();
  }

  async function delivered() {
    await waitUntil(async () => {
      const r = await p.call('GET', '/admin/callbacks?status=pending&limit=10');
      return r.json.items.filter((i: { mode: string }) => i.mode === 'async').length === 0;
    }, 30_000);
  }

  /** The stored exposure (EUR) of the outcome the test bets on. */
  const exposure = async (eventId: string): Promise<Rational> => {
    const r = await p.call('GET', `/admin/risk/exposure?sport_event_id=${eventId}`);
    const rows = (r.json.items as Array<{ odd_id: string; exposure_eur: string }>).filter(
      (i) => i.odd_id === '1',
    );
    return rows.reduce((acc, i) => add(acc, d(i.exposure_eur)), d('0'));
  };
  const balance = async (player: string) => (await p.walletApi.balance(player)).available;
  const paths = async (bet: string) =>
    (
      (await p.call('GET', `/admin/callbacks?bet_id=${bet}&limit=20`)).json.items as Array<{ path: string }>
    ).map((i) => i.path);

  beforeAll(async () => {
    p = await startPlatform({
      env: { CALLBACK_POLL_MS: '100', CASH_OUT_MARGIN: MARGIN, CASH_OUT_QUOTE_TTL_S: '1' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('full cash-out: the quoted amount is paid through the callback, the bet ends cashed out, no settle follows', async () => {
    const e = await newEvent();
    await p.walletApi.deposit('full', '100');
    const s = await p.session('full', { sid: 'full' });
    const bet = await place(s, e);
    await delivered();
    const quote = await p.call('POST', `/bets/${bet.id}/cash-out-orders/calculate`, {
      ...partner(),
      body: {},
    });
    expect(quote.status).toBe(200);
    expect(quote.json).toMatchObject({ available: true, amount: '10.000000' });
    expect(quote.json.refund_amount).toBe(await expectedOffer(e, '10', bet.odds));
    const placed = await p.call('POST', `/bets/${bet.id}/cash-out-orders/place`, {
      ...partner(),
      body: {
        id: 'full-1',
        amount: '10',
        refund_amount: quote.json.refund_amount,
        quote_id: quote.json.quote_id,
      },
    });
    expect(placed.status).toBe(201);
    expect(placed.json.order).toMatchObject({ id: 'full-1', status: { code: 'accepted' } });
    await delivered();
    const paid = quote.json.refund_amount as string;
    expect(formatMoney(await exposure(e))).toBe('0.000000');
    expect(await balance('full')).toBe(formatMoney(add(d('90'), d(paid))));
    const viewer = await p.session('full');
    expect((await p.call('GET', `/frame-api/bets/${bet.id}`, { token: viewer })).json).toMatchObject({
      status: 7,
      cashed_out_stake: '10.000000',
      cashed_out_refund: paid,
    });
    // the same order id again answers the stored order; a second cash-out finds nothing left
    const again = await p.call('POST', `/bets/${bet.id}/cash-out-orders/place`, {
      ...partner(),
      body: { id: 'full-1', amount: '10', refund_amount: paid },
    });
    expect(again.status).toBe(200);
    expect(
      (await p.call('POST', `/bets/${bet.id}/cash-out-orders/simplified-calculate`, partner())).json,
    ).toMatchObject({ available: false, reason: 'bet_not_open' });
    // the selection wins afterwards: nothing more is paid
    await patchMarket(e, { odds: [{ id: '1', status: 1 }] });
    expect(await paths(bet.id)).not.toContain('/bet/settle');
    expect(await paths(bet.id)).toContain('/bet/cash-out-orders/accepted');
    expect(await balance('full')).toBe(formatMoney(add(d('90'), d(paid))));
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
  }, 60_000);

  it('partial cash-out in the frame; settle pays the rest; a cancel gives the stake back and settles again', async () => {
    const e = await newEvent();
    await p.walletApi.deposit('part', '100');
    const s = await p.session('part', { sid: 'part' });
    const bet = await place(s, e);
    await delivered();
    const before = await exposure(e);
    const q = await p.call('POST', `/frame-api/bets/${bet.id}/cash-out/calculate`, {
      token: s,
      body: { amount: '4' },
    });
    const placed = await p.call('POST', `/frame-api/bets/${bet.id}/cash-out/place`, {
      token: s,
      body: { amount: '4', refund_amount: q.json.refund_amount, quote_id: q.json.quote_id },
    });
    expect(placed.status).toBe(201);
    expect(placed.json.order.status.code).toBe('accepted');
    await delivered();
    const part = d(q.json.refund_amount);
    // the exposure shrinks with the stake in play, in the order's transaction
    expect(formatMoney(await exposure(e))).toBe(formatMoney(roundHalfUp(mul(before, d('0.6')), 6)));
    // and exactly as the recompute from the bets finds it
    const recompute = await p.call('POST', '/admin/risk/recompute');
    expect(recompute.json).toMatchObject({ ok: true, outcome_differences: [], bet_differences: [] });
    expect(await balance('part')).toBe(formatMoney(add(d('90'), part)));
    // the player's view of the bet: the part cashed out and what it paid
    const view = async () => (await p.call('GET', `/frame-api/bets/${bet.id}`, { token: s })).json;
    expect(await view()).toMatchObject({
      status: 1,
      cashed_out_stake: '4.000000',
      cashed_out_refund: formatMoney(part),
    });
    // the partner's view of the bet lists the order by its id
    const orderId = placed.json.order.id as string;
    const partnerView = async () => (await p.call('GET', `/bets/${bet.id}`, partner())).json;
    expect((await partnerView()).cash_out_orders).toEqual({ [orderId]: placed.json.order });
    // the selection wins: settlement pays the remaining 6 at the bet's odds
    await patchMarket(e, { odds: [{ id: '1', status: 1 }] });
    const rest = mul(d('6'), bet.odds);
    expect(await balance('part')).toBe(formatMoney(add(add(d('90'), part), rest)));
    // the partner declines the order afterwards: it takes the payment back, and the bet settles on its whole stake
    const cancel = await p.call(
      'PATCH',
      `/bets/${bet.id}/cash-out-orders/${placed.json.order.id}/cancel`,
      partner(),
    );
    expect(cancel.status).toBe(200);
    expect(cancel.json.order.status).toEqual({ code: 'declined', reason: 'cancelled_by_partner' });
    await delivered();
    expect(await balance('part')).toBe(formatMoney(add(d('90'), mul(d('10'), bet.odds))));
    expect(await view()).toMatchObject({
      status: 3,
      cashed_out_stake: '0.000000',
      cashed_out_refund: '0.000000',
    });
    expect((await partnerView()).cash_out_orders).toEqual({
      [orderId]: { ...placed.json.order, status: { code: 'declined', reason: 'cancelled_by_partner' } },
    });
    expect(await paths(bet.id)).toEqual(
      expect.arrayContaining([
        '/bet/cash-out-orders/accepted',
        '/bet/cash-out-orders/declined',
        '/bet/unsettle',
      ]),
    );
    const again = await p.call(
      'PATCH',
      `/bets/${bet.id}/cash-out-orders/${placed.json.order.id}/cancel`,
      partner(),
    );
    expect(again.status).toBe(409);
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
  }, 60_000);

  it('declines with a reason: price moved, quote expired, suspended market, too large', async () => {
    const e = await newEvent();
    await p.walletApi.deposit('decl', '100');
    const s = await p.session('decl', { sid: 'decl' });
    const bet = await place(s, e);
    await delivered();
    const url = `/bets/${bet.id}/cash-out-orders`;
    const q = await p.call('POST', `${url}/calculate`, { ...partner(), body: {} });
    // asking more than the offer without a quote: the price moved
    const greedy = formatMoney(add(d(q.json.refund_amount), d('0.01')));
    const moved = await p.call('POST', `${url}/place`, {
      ...partner(),
      body: { id: 'greedy', amount: '10', refund_amount: greedy },
    });
    expect(moved.json.order.status).toEqual({ code: 'declined', reason: 'price_moved' });
    // the price drifts away from the selection and the quote runs out: quote_expired
    await patchMarket(e, { odds: [{ id: '1', value: '3.5' }] });
    await waitUntil(async () => Date.now() > Date.parse(q.json.expires_at) + 100);
    const late = await p.call('POST', `${url}/place`, {
      ...partner(),
      body: { id: 'late', amount: '10', refund_amount: q.json.refund_amount, quote_id: q.json.quote_id },
    });
    expect(late.json.order.status).toEqual({ code: 'declined', reason: 'quote_expired' });
    expect(
      (await p.call('POST', `${url}/calculate`, { ...partner(), body: { amount: '11' } })).json,
    ).toMatchObject({
      available: false,
      reason: 'amount_too_large',
    });
    await patchMarket(e, { status: 1 });
    const suspended = await p.call('POST', `${url}/calculate`, { ...partner(), body: {} });
    expect(suspended.json).toMatchObject({
      available: false,
      reason: 'market_suspended',
      refund_amount: '0.000000',
    });
    expect(suspended.json.quote_id).toBeUndefined();
    // nothing was paid, the bet is still open on its whole stake
    expect(await balance('decl')).toBe('90.000000');
    expect(await paths(bet.id)).not.toContain('/bet/cash-out-orders/accepted');
    // another white label's or an unknown bet: 404; a bad amount: 400 naming the field
    expect(
      (
        await p.call('POST', '/bets/00000000-0000-4000-8000-000000000000/cash-out-orders/calculate', {
          ...partner(),
          body: {},
        })
      ).status,
    ).toBe(404);
    const bad = await p.call('POST', `${url}/calculate`, { ...partner(), body: { amount: '0' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('amount');
  }, 60_000);

  it('offers nothing on an express with a lost leg, and an order on it is declined leg_resulted', async () => {
    const [e1, e2] = [await newEvent(), await newEvent()];
    await p.walletApi.deposit('lost', '100');
    const s = await p.session('lost', { sid: 'lost' });
    const r = await p.call('POST', '/frame-api/bets', {
      token: s,
      body: {
        bet_type: 'express',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [e1, e2].map((e) => ({ sport_event_id: e, market_id: '1', odd_id: '1', odds: '1.01' })),
      },
    });
    expect(r.json.status).toBe(1);
    await delivered();
    const url = `/bets/${r.json.id}/cash-out-orders`;
    expect((await p.call('POST', `${url}/calculate`, { ...partner(), body: {} })).json.available).toBe(true);
    await patchMarket(e1, { odds: [{ id: '1', status: 2 }] });
    expect((await p.call('POST', `${url}/simplified-calculate`, partner())).json).toMatchObject({
      available: false,
      reason: 'leg_lost',
    });
    const order = await p.call('POST', `${url}/place`, {
      ...partner(),
      body: { id: 'after-loss', amount: '10', refund_amount: '0.01' },
    });
    expect(order.json.order.status).toEqual({ code: 'declined', reason: 'leg_resulted' });
  }, 60_000);
  it('offers nothing on a system bet, to the partner or the player, and an order on it is declined with that reason', async () => {
    const events = [await newEvent(), await newEvent(), await newEvent()];
    await p.walletApi.deposit('sys', '100');
    const s = await p.session('sys', { sid: 'sys' });
    const r = await p.call('POST', '/frame-api/bets', {
      token: s,
      body: {
        bet_type: 'system',
        system_sizes: [2],
        stake: '3',
        currency: 'EUR',
        odds_strategy: 3,
        selections: events.map((e) => ({ sport_event_id: e, market_id: '1', odd_id: '1', odds: '1.01' })),
      },
    });
    expect(r.json.status).toBe(1);
    await delivered();
    const url = `/bets/${r.json.id}/cash-out-orders`;
    expect((await p.call('POST', `${url}/calculate`, { ...partner(), body: {} })).json).toMatchObject({
      available: false,
      reason: 'bet_type_not_supported',
    });
    const player = await p.call('POST', `/frame-api/bets/${r.json.id}/cash-out/calculate`, {
      token: s,
      body: {},
    });
    expect(player.json).toMatchObject({ available: false, reason: 'bet_type_not_supported' });
    const order = await p.call('POST', `${url}/place`, {
      ...partner(),
      body: { id: 'sys-order', amount: '3', refund_amount: '0.01' },
    });
    expect(order.json.order.status.code).toBe('declined');
    expect(await balance('sys')).toBe('97.000000');
  }, 60_000);
});
