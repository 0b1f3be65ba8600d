import { add, formatMoney, mul, parseDecimal, type Rational } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { relayPartner, waitUntil } from '../../testing/scripted-partner.js';

const d = (v: string): Rational => parseDecimal(v, { field: 'x', maxDecimals: 12 });

// The real server and the reference wallet as separate processes; in front of the wallet, a relay that answers the
// cash-out callbacks 404 as a partner without them would. A cash-out accepted on the platform cannot be paid: it is
// reversed, and the white label is offered no cash-out afterwards.
describe(`cash-out of a partner without cash-out callbacks (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  let relay: Awaited<ReturnType<typeof relayPartner>>;
  const partner = () => ({ token: p.accessToken });

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
    return { id: r.json.id as string, odds: d(r.json.selections[0].odds) };
  }
  async function delivered() {
    await waitUntil(async () => {
      const r = await p.call('GET', '/admin/callbacks?status=pending&limit=10');
      return r.json.items.filter((i: { mode: string }) => i.mode === 'async').length === 0;
    }, 30_000);
  }
  const exposure = async (eventId: string): Promise<string> => {
    const r = await p.call('GET', `/admin/risk/exposure?sport_event_id=${eventId}`);
    const rows = (r.json.items as Array<{ odd_id: string; exposure_eur: string }>).filter(
      (i) => i.odd_id === '1',
    );
    return formatMoney(rows.reduce((acc, i) => add(acc, d(i.exposure_eur)), d('0')));
  };
  const recompute = async () => {
    const r = await p.call('POST', '/admin/risk/recompute');
    expect(r.json, JSON.stringify(r.json)).toMatchObject({
      ok: true,
      outcome_differences: [],
      bet_differences: [],
    });
  };
  const balance = async (player: string) => (await p.walletApi.balance(player)).available;
  const queued = async (bet: string) =>
    (
      (await p.call('GET', `/admin/callbacks?bet_id=${bet}&limit=20`)).json.items as Array<{ path: string }>
    ).map((i) => i.path);
  const announce = async (cashOut: boolean) => {
    const r = await p.call('PATCH', `/admin/white-labels/${p.partner.whiteLabelId}`, {
      body: { optional_callbacks: { cash_out: cashOut } },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  };
  /** The player's quote of the whole stake, once the white label cache shows what Bookie knows (1 s). */
  const quoteOnceSettled = async (token: string, bet: string, reason: string | undefined) => {
    let last: { available: boolean; reason?: string } | undefined;
    await waitUntil(async () => {
      last = (await p.call('POST', `/frame-api/bets/${bet}/cash-out/calculate`, { token, body: {} })).json;
      return last?.reason === reason;
    }, 10_000);
    return last!;
  };

  beforeAll(async () => {
    p = await startPlatform({
      env: { CALLBACK_POLL_MS: '100', CASH_OUT_MARGIN: '0.05', PLAYER_RATE_LIMIT: '0' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
    relay = await relayPartner(p.wallet.url, (r) =>
      r.path.startsWith('/bet/cash-out-orders/') ? { status: 404 } : undefined,
    );
    const r = await p.call('PATCH', `/admin/white-labels/${p.partner.whiteLabelId}`, {
      body: { callback_url: relay.url },
    });
    expect(r.status).toBe(200);
  }, 240_000);
  afterAll(async () => {
    await p?.close();
    await relay?.close();
  });

  it('reverses a partial cash-out whose callback is answered 404: stake, exposure and the player view restored; no cash-out offered afterwards; settle pays the whole stake', async () => {
    const e = await newSportEvent(p, 1);
    await p.walletApi.deposit('nopay', '100');
    const s = await p.session('nopay', { sid: 'nopay' });
    const bet = await place(s, e);
    await delivered();
    const before = await exposure(e);
    expect(before).not.toBe('0.000000');

    const q = await p.call('POST', `/frame-api/bets/${bet.id}/cash-out/calculate`, {
      token: s,
      body: { amount: '4' },
    });
    expect(q.json.available, JSON.stringify(q.json)).toBe(true);
    const placed = await p.call('POST', `/frame-api/bets/${bet.id}/cash-out/place`, {
      token: s,
      body: { amount: '4', refund_amount: q.json.refund_amount, quote_id: q.json.quote_id },
    });
    expect(placed.json.order.status.code).toBe('accepted');
    const orderId = placed.json.order.id as string;

    // the partner answers the payment 404: the order is reversed
    const view = async () => (await p.call('GET', `/frame-api/bets/${bet.id}`, { token: s })).json;
    await waitUntil(async () => (await view()).cash_out_orders?.[0]?.status.code === 'declined', 30_000);
    expect(await view()).toMatchObject({
      status: 1,
      stake: '10.000000',
      cashed_out_stake: '0.000000',
      cashed_out_refund: '0.000000',
      cash_out_orders: [
        {
          id: orderId,
          amount: '4.000000',
          refund_amount: q.json.refund_amount,
          status: { code: 'declined', reason: 'partner_unsupported' },
        },
      ],
    });
    // the history shows it the same way
    const history = (await p.call('GET', '/frame-api/bets', { token: s })).json.items;
    expect(history.find((b: { id: string }) => b.id === bet.id).cash_out_orders[0].status.reason).toBe(
      'partner_unsupported',
    );
    // the partner's view of the bet: the order declined
    expect((await p.call('GET', `/bets/${bet.id}`, partner())).json.cash_out_orders[orderId].status).toEqual({
      code: 'declined',
      reason: 'partner_unsupported',
    });
    // the exposure stands for the whole stake again, as the recompute from the bets finds it
    expect(await exposure(e)).toBe(before);
    await recompute();
    // nothing was paid; the payment was tried once and no decline followed (the same unsupported capability)
    expect(await balance('nopay')).toBe('90.000000');
    expect(relay.at('/bet/cash-out-orders/accepted')).toHaveLength(1);
    expect(await queued(bet.id)).not.toContain('/bet/cash-out-orders/declined');
    const wl = (await p.call('GET', `/admin/white-labels/${p.partner.whiteLabelId}`)).json;
    expect(wl.optional_callbacks.cash_out).toMatchObject({ learnt: 'unsupported', supported: false });

    // from now on the white label is offered no cash-out: to the player, to the partner; an order is declined
    expect(await quoteOnceSettled(s, bet.id, 'cash_out_unavailable')).toMatchObject({
      available: false,
      refund_amount: '0.000000',
    });
    expect(
      (await p.call('POST', `/bets/${bet.id}/cash-out-orders/calculate`, { ...partner(), body: {} })).json,
    ).toMatchObject({ available: false, reason: 'cash_out_unavailable' });
    const refused = await p.call('POST', `/frame-api/bets/${bet.id}/cash-out/place`, {
      token: s,
      body: { amount: '4', refund_amount: q.json.refund_amount },
    });
    expect(refused.json.order.status).toEqual({ code: 'declined', reason: 'cash_out_unavailable' });

    // the selection wins: settlement pays on the restored stake
    const r = await p.call('PATCH', `/trading/sport-events/${e}/markets`, {
      body: { markets: [{ id: '1', odds: [{ id: '1', status: 1 }] }] },
    });
    expect(r.status).toBe(200);
    await waitUntil(async () => (await view()).status === 3, 30_000);
    await delivered();
    expect(await balance('nopay')).toBe(formatMoney(add(d('90'), mul(d('10'), bet.odds))));
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
  }, 120_000);

  it('a full cash-out reversed opens the bet again with its exposure; a partner that withdraws cash-out is offered none', async () => {
    // the partner announces cash-out again: Bookie forgets what it learnt and offers it
    await announce(true);
    const e = await newSportEvent(p, 1);
    await p.walletApi.deposit('nopay-full', '100');
    const s = await p.session('nopay-full', { sid: 'nopay-full' });
    const bet = await place(s, e);
    await delivered();
    const before = await exposure(e);
    const q = await quoteOnceSettled(s, bet.id, undefined);
    expect(q.available).toBe(true);
    const quote = q as unknown as { refund_amount: string; quote_id: string };
    const placed = await p.call('POST', `/frame-api/bets/${bet.id}/cash-out/place`, {
      token: s,
      body: { amount: '10', refund_amount: quote.refund_amount, quote_id: quote.quote_id },
    });
    expect(placed.json.order.status.code).toBe('accepted');
    const view = async () => (await p.call('GET', `/frame-api/bets/${bet.id}`, { token: s })).json;
    await waitUntil(async () => (await view()).cash_out_orders?.[0]?.status.code === 'declined', 30_000);
    expect(await view()).toMatchObject({
      status: 1,
      state: 'accepted',
      cashed_out_stake: '0.000000',
      cash_out_orders: [{ status: { code: 'declined', reason: 'partner_unsupported' } }],
    });
    expect(await exposure(e)).toBe(before);
    await recompute();
    expect(await balance('nopay-full')).toBe('90.000000');

    // the partner withdraws cash-out: nothing is offered, with the reason, and nothing is tried
    await announce(false);
    expect(await quoteOnceSettled(s, bet.id, 'cash_out_unavailable')).toMatchObject({ available: false });
    expect(relay.at('/bet/cash-out-orders/accepted')).toHaveLength(2);
  }, 120_000);
});
