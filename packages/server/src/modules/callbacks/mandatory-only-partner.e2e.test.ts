import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, createSession, partnerToken } from '../../testing/partner.js';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { scriptedPartner, waitUntil } from '../../testing/scripted-partner.js';
import { proxyWithout } from '../../testing/unsupported-paths-proxy.js';

/** Spec 01's mandatory callbacks: a partner may implement these and nothing else. */
const MANDATORY = new Set(['/bet/place', '/bet/accept', '/bet/decline', '/bet/settle', '/bet/unsettle']);

// Bookie and the reference wallet as real processes, over HTTP; the wallet sits behind a proxy that implements only
// the mandatory callbacks (every other path answers 404), with heartbeats on at a one-second interval.
describe(`a partner that implements only the mandatory callbacks (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  let partner: Awaited<ReturnType<typeof proxyWithout>>;
  /** Another white label, which announced heartbeats: its heartbeats count the intervals that pass. */
  let beating: Awaited<ReturnType<typeof scriptedPartner>>;
  let beatingSession: string;

  const heartbeatsCounted = () => beating.at('/heartbeat').length;
  /** Keeps the other white label's frame in use, so it gets a heartbeat every interval. */
  const keepBeating = () => p.call('GET', '/frame-api/sport-events', { token: beatingSession });

  async function place(token: string, eventId: string, extra: Record<string, unknown> = {}) {
    return p.call('POST', '/frame-api/bets', {
      token,
      body: {
        bet_type: 'single',
        stake: '1',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.01' }],
        ...extra,
      },
    });
  }

  async function delivered() {
    await waitUntil(async () => {
      const r = await p.call('GET', '/admin/callbacks?status=pending&limit=10');
      return r.json.items.filter((i: { mode: string }) => i.mode === 'async').length === 0;
    }, 60_000);
  }

  /** Sets the result of odd 1 of market 1 and waits until settlement applied it and its callbacks went out. */
  async function result(eventId: string, status: number) {
    const r = await p.call('PATCH', `/trading/sport-events/${eventId}/markets`, {
      body: { markets: [{ id: '1', odds: [{ id: '1', status }] }] },
    });
    expect(r.status).toBe(200);
    await waitUntil(async () => {
      const s = await p.call('GET', '/admin/settlement/status');
      return s.json.leader && BigInt(s.json.processed) >= BigInt(r.json.version);
    }, 60_000);
    await delivered();
  }

  const deliveriesOf = async (betId: string) =>
    (
      (await p.call('GET', `/admin/callbacks?bet_id=${betId}&limit=50`)).json.items as Array<{
        path: string;
        status: string;
        last_status: number | null;
      }>
    ).reverse();

  beforeAll(async () => {
    p = await startPlatform({
      env: { HEARTBEAT_INTERVAL_S: '1', CALLBACK_POLL_MS: '100' },
      // it announces no optional callback
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null }, optional_callbacks: {} },
    });
    partner = await proxyWithout(p.wallet.url, (path) => !MANDATORY.has(path));
    const patched = await p.call('PATCH', `/admin/white-labels/${p.partner.whiteLabelId}`, {
      body: { callback_url: partner.url },
    });
    expect(patched.status).toBe(200);
    // it announced nothing: heartbeats are not relied on
    expect(patched.json.optional_callbacks.heartbeat).toMatchObject({ announced: null, supported: false });
    beating = await scriptedPartner();
    const other = await createPartner(
      { baseUrl: p.bookie.url },
      { callback_url: beating.url, optional_callbacks: { heartbeat: true } },
    );
    const otherToken = await partnerToken(p.bookie.url, other.clientId, other.clientSecret);
    beatingSession = await createSession(p.bookie.url, otherToken, { player_id: 'beating', params: {} });
  }, 180_000);

  afterAll(async () => {
    await p?.close();
    await partner?.close();
    await beating?.close();
  });

  it('players bet through several heartbeat intervals and are never logged out', async () => {
    const e = await newSportEvent(p, 1);
    const players = ['steady-1', 'steady-2'];
    const sessions: string[] = [];
    for (const id of players) {
      await p.walletApi.deposit(id, '100');
      sessions.push(await p.session(id, { sid: id }));
    }
    await keepBeating();
    const start = heartbeatsCounted();
    let bets = 0;
    let rounds = 0;
    // five heartbeat intervals at least, counted by the other white label's heartbeats; bets in each of them
    while (rounds < 5 || heartbeatsCounted() < start + 5) {
      rounds++;
      const before = heartbeatsCounted();
      for (const s of sessions) {
        const r = await place(s, e);
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(r.json.status).toBe(1);
        bets++;
      }
      await waitUntil(async () => {
        await keepBeating();
        return heartbeatsCounted() > before;
      }, 30_000);
    }
    // the sessions still place bets at the end
    for (const s of sessions) {
      const r = await place(s, e);
      expect(r.json.status).toBe(1);
      expect((await p.call('GET', '/frame-api/sport-events', { token: s })).status).toBe(200);
    }
    // it never got a heartbeat (it announced none), though it would have answered 404
    expect(partner.received.get('/heartbeat') ?? 0).toBe(0);
    expect(partner.received.get('/bet/place')).toBeGreaterThanOrEqual(bets);
  });

  it('its players are offered no cash-out: it announced no cash-out callbacks', async () => {
    const e = await newSportEvent(p, 1);
    await p.walletApi.deposit('no-cash-out', '100');
    const s = await p.session('no-cash-out', { sid: 'no-cash-out' });
    const bet = await place(s, e, { stake: '10' });
    expect(bet.json.status, JSON.stringify(bet.json)).toBe(1);
    const player = await p.call('POST', `/frame-api/bets/${bet.json.id}/cash-out/calculate`, {
      token: s,
      body: {},
    });
    expect(player.json).toMatchObject({ available: false, reason: 'cash_out_unavailable' });
    const order = await p.call('POST', `/frame-api/bets/${bet.json.id}/cash-out/place`, {
      token: s,
      body: { amount: '10', refund_amount: '5' },
    });
    expect(order.json.order.status).toEqual({ code: 'declined', reason: 'cash_out_unavailable' });
    await delivered();
    expect(partner.received.get('/bet/cash-out-orders/accepted') ?? 0).toBe(0);
  });

  it('an insured bet resettled loss → win → loss gets /bet/insurances/accepted once; its later callbacks are still delivered', async () => {
    const e = await newSportEvent(p, 1);
    await p.walletApi.deposit('insured', '100');
    const session = await p.session('insured', { sid: 'insured' });
    const created = await p.call('POST', '/insurance/create', {
      token: p.accessToken,
      body: { player_id: 'insured', currency_code: 'EUR', type: 'amount', amount: '3' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const ins = created.json.id as string;
    const bet = await place(session, e, { stake: '10', insurance_id: ins });
    expect(bet.json.status).toBe(1);
    const betId = bet.json.id as string;
    const acceptedBefore = partner.received.get('/bet/insurances/accepted') ?? 0;

    await result(e, 2); // lost: the refund is earned; the partner answers its accepted 404
    await result(e, 1); // corrected to a win
    await result(e, 2); // and to a loss again

    expect((partner.received.get('/bet/insurances/accepted') ?? 0) - acceptedBefore).toBe(1);
    const rows = await deliveriesOf(betId);
    expect(rows.map((r) => [r.path, r.status])).toEqual([
      ['/bet/place', 'delivered'],
      ['/bet/accept', 'delivered'],
      ['/bet/settle', 'delivered'],
      ['/bet/insurances/accepted', 'unsupported'],
      ['/bet/unsettle', 'delivered'],
      ['/bet/settle', 'delivered'],
      ['/bet/unsettle', 'delivered'],
      ['/bet/settle', 'delivered'],
    ]);
    expect(rows[3]!.last_status).toBe(404);
    // Bookie learnt the white label has no insurance callbacks
    const wl = await p.call('GET', `/admin/white-labels/${p.partner.whiteLabelId}`);
    expect(wl.json.optional_callbacks.insurance).toMatchObject({ learnt: 'unsupported', supported: false });
    // the refund the loss earns never reached the player: an open item for the operator
    const items = await p.call('GET', `/admin/insurance-open-items?white_label_id=${p.partner.whiteLabelId}`);
    expect(items.json.items).toEqual([
      expect.objectContaining({
        bet_id: betId,
        insurance_id: ins,
        kind: 'refund_not_paid',
        amount: '3.000000',
      }),
    ]);
    // the wallet saw the stake lost, with no refund
    expect((await p.walletApi.balance('insured')).available).toBe('90.000000');
  });

  it('a callback answered auth_session_unknown ends the session its bet was placed with, and is still delivered', async () => {
    const e = await newSportEvent(p, 1);
    await p.walletApi.deposit('told-out', '100');
    const session = await p.session('told-out', { sid: 'told-out' });
    const bet = await place(session, e, { stake: '5' });
    expect(bet.json.status).toBe(1);
    const betId = bet.json.id as string;
    await delivered();
    let settles = 0;
    partner.answer = (path, body) =>
      path === '/bet/settle' && body.includes(betId) && settles++ === 0
        ? { status: 400, body: '{"error":{"code":"auth_session_unknown"}}' }
        : undefined;
    try {
      await result(e, 1);
    } finally {
      partner.answer = undefined;
    }
    // refused once, then delivered on its retry
    expect(settles).toBe(2);
    expect((await deliveriesOf(betId)).at(-1)).toMatchObject({ path: '/bet/settle', status: 'delivered' });
    expect((await p.call('GET', '/frame-api/sport-events', { token: session })).status).toBe(401);
    expect((await place(session, e)).status).toBe(401);
  });
});
