import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { sampleEvent } from '../trading/fixtures.js';

// The advisory mode end to end: the real server as its own process, the partner reporting bets it took itself.
describe(`advisory mode (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;

  async function newEvent(markets = 1): Promise<string> {
    const ev = sampleEvent({ markets });
    expect((await p.call('POST', '/trading/sport-events', { body: ev })).status).toBe(201);
    const viewer = await p.session('viewer-x');
    await waitUntil(
      async () => (await p.call('GET', `/frame-api/sport-events/${ev.id}`, { token: viewer })).status === 200,
    );
    return ev.id as string;
  }

  /** Waits until the server's replica shows the event as `ready` says. */
  async function replicaShows(event: string, ready: (ev: Record<string, unknown>) => boolean) {
    const viewer = await p.session('viewer-x');
    await waitUntil(async () => {
      const r = await p.call('GET', `/frame-api/sport-events/${event}`, { token: viewer });
      return r.status === 200 && ready(r.json.sport_event ?? r.json);
    });
  }

  async function published(event: string, market: string, odd: string): Promise<string> {
    const r = await p.call('GET', `/trading/sport-events/${event}`);
    return r.json.sport_event.markets[market].odds[odd].value as string;
  }

  const bet = (over: Record<string, unknown>) => ({
    bet_id: `adv-${randomUUID()}`,
    site_id: 'acme.example',
    type: { code: 0, system_sizes: [1] },
    stake: { value: '10', currency_code: 'EUR' },
    selections: [],
    player_id: 'adv-player',
    created_at: new Date().toISOString(),
    ...over,
  });
  const sel = (event: string, market: string, odd: string, value: string) => ({
    sport_event_id: event,
    market_id: market,
    odd_id: odd,
    value,
  });
  async function advise(body: Record<string, unknown>) {
    const r = await p.call('POST', '/bets/advisory', { token: p.accessToken, body });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json as { bet: Record<string, unknown>; restrictions: Array<{ type: string; context: object }> };
  }
  const only = async (type: string, body: Record<string, unknown>) =>
    (await advise(body)).restrictions.filter((r) => r.type === type);

  beforeAll(async () => {
    p = await startPlatform({
      env: { PLAYER_RATE_LIMIT: '0', DELAY_INSTABILITY_WINDOW_S: '0', RISK_SETTINGS_CACHE_MS: '0' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null }, bet_interval: 600 },
    });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('produces every restriction type of the advisory table, each with its context', async () => {
    const a = await newEvent(3);
    const [stopped, ended, interval] = [await newEvent(), await newEvent(), await newEvent()];
    const v = (e: string, m = '1', o = '1') => published(e, m, o);
    // market 2 suspended, market 3 defective, odd 2 of market 1 inactive; a bet stop; an ended fixture
    expect(
      (
        await p.call('PATCH', `/trading/sport-events/${a}/markets`, {
          body: {
            markets: [
              { id: '1', odds: [{ id: '2', is_active: false }] },
              { id: '2', status: 1 },
              { id: '3', is_defective: true },
            ],
          },
        })
      ).status,
    ).toBe(200);
    expect(
      (await p.call('PUT', `/trading/sport-events/${stopped}/bet-stop`, { body: { bet_stop: true } })).status,
    ).toBe(200);
    expect(
      (await p.call('PATCH', `/trading/sport-events/${ended}/fixture`, { body: { status: 3 } })).status,
    ).toBe(200);
    await replicaShows(a, (ev) => (ev.markets as Record<string, { status: number }>)['2']?.status === 1);
    await replicaShows(stopped, (ev) => ev.bet_stop === true);
    await replicaShows(ended, (ev) => (ev.fixture as { status: number }).status === 3);

    const ok = v(a);
    expect(
      await only('sport_event_existence', bet({ selections: [sel('no-such-event', '1', '1', '2')] })),
    ).toEqual([
      {
        type: 'sport_event_existence',
        context: expect.objectContaining({ sport_event_id: 'no-such-event' }),
      },
    ]);
    expect(await only('market_existence', bet({ selections: [sel(a, '99', '1', '2')] }))).toEqual([
      { type: 'market_existence', context: expect.objectContaining({ sport_event_id: a, market_id: '99' }) },
    ]);
    expect(await only('odd_existence', bet({ selections: [sel(a, '1', '99', '2')] }))).toEqual([
      {
        type: 'odd_existence',
        context: expect.objectContaining({ sport_event_id: a, market_id: '1', odd_id: '99' }),
      },
    ]);
    const current = await ok;
    const changed = await only('selection_value', bet({ selections: [sel(a, '1', '1', '1.01')] }));
    expect(changed).toEqual([
      {
        type: 'selection_value',
        context: expect.objectContaining({
          sport_event_id: a,
          market_id: '1',
          odd_id: '1',
          value: expect.any(String),
        }),
      },
    ]);
    expect(Number((changed[0]?.context as { value: string }).value)).toBeCloseTo(Number(current), 6);
    expect(await only('odd_status', bet({ selections: [sel(a, '1', '2', await v(a, '1', '2'))] }))).toEqual([
      {
        type: 'odd_status',
        context: expect.objectContaining({
          sport_event_id: a,
          market_id: '1',
          odd_id: '2',
          status: 0,
          is_active: false,
        }),
      },
    ]);
    expect(await only('market_status', bet({ selections: [sel(a, '2', '1', await v(a, '2'))] }))).toEqual([
      {
        type: 'market_status',
        context: expect.objectContaining({ sport_event_id: a, market_id: '2', status: 1 }),
      },
    ]);
    expect(await only('market_defective', bet({ selections: [sel(a, '3', '1', await v(a, '3'))] }))).toEqual([
      { type: 'market_defective', context: expect.objectContaining({ sport_event_id: a, market_id: '3' }) },
    ]);
    expect(
      await only('sport_event_bet_stop', bet({ selections: [sel(stopped, '1', '1', await v(stopped))] })),
    ).toEqual([
      { type: 'sport_event_bet_stop', context: expect.objectContaining({ sport_event_id: stopped }) },
    ]);
    expect(
      await only('sport_event_status', bet({ selections: [sel(ended, '1', '1', await v(ended))] })),
    ).toEqual([
      { type: 'sport_event_status', context: expect.objectContaining({ sport_event_id: ended, status: 3 }) },
    ]);
    const twoOnOne = await only(
      'bet_type',
      bet({
        type: { code: 1, system_sizes: [2] },
        selections: [sel(a, '1', '1', current), sel(a, '1', '3', await v(a, '1', '3'))],
      }),
    );
    expect(twoOnOne).toEqual([
      { type: 'bet_type', context: expect.objectContaining({ sport_event_id: a, bet_type: 'express' }) },
    ]);
    expect(
      await only(
        'max_bet',
        bet({ selections: [sel(a, '1', '1', current)], stake: { value: '1000.5', currency_code: 'EUR' } }),
      ),
    ).toEqual([
      { type: 'max_bet', context: expect.objectContaining({ max_bet: '1000.000000', sport_event_id: a }) },
    ]);
    // the player's advisory bet on an event starts its bet interval
    const first = await advise(
      bet({ player_id: 'adv-interval', selections: [sel(interval, '1', '1', await v(interval))] }),
    );
    expect(first.restrictions).toEqual([]);
    const waited = await only(
      'bet_interval',
      bet({ player_id: 'adv-interval', selections: [sel(interval, '1', '1', await v(interval))] }),
    );
    expect(waited).toEqual([
      {
        type: 'bet_interval',
        context: expect.objectContaining({ sport_event_id: interval, time_to_wait: expect.any(String) }),
      },
    ]);
    expect(Number((waited[0]?.context as { time_to_wait: string }).time_to_wait)).toBeGreaterThan(590);
    // advisory bets never reach exposure
    const exposure = await p.call('GET', `/admin/risk/exposure?sport_event_id=${interval}`);
    expect(exposure.json.items).toEqual([]);
  });

  it('answers a repeat with the same bytes, also when it arrives with the first, and another body with 409', async () => {
    const e = await newEvent();
    const odds = await published(e, '1', '1');
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${p.bookie.url}/bets/advisory`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const body = bet({
      player_id: 'adv-repeat',
      selections: [sel(e, '1', '1', odds)],
      stake: { value: '1000.5', currency_code: 'EUR' },
      foreign_selections: [{ id: 'f-1', value: '2' }],
    });
    // the first and its repeats together: one records it, the others answer what it recorded
    const together = await Promise.all([post(body), post(body), post(body)]);
    const first = together[0] as { status: number; text: string };
    expect(first.status, first.text).toBe(201);
    expect(JSON.parse(first.text).restrictions.map((r: { type: string }) => r.type)).toContain('max_bet');
    const later = await Promise.all([post(body), post(body)]);
    for (const r of [...together, ...later]) {
      expect(r.status).toBe(201);
      expect(r.text).toBe(first.text);
    }
    const other = await post({ ...body, stake: { value: '11', currency_code: 'EUR' } });
    expect(other.status).toBe(409);
    expect(JSON.parse(other.text).error.code).toBe('idempotency_conflict');
    const versions = await p.call('GET', `/bets/advisory/${encodeURIComponent(body.bet_id)}/versions`, {
      token: p.accessToken,
    });
    expect(versions.json.items).toHaveLength(1);
  });

  it('PUT replaces the whole state, keeps every version, and refuses what a retry cannot fix', async () => {
    const e = await newEvent();
    const odds = await published(e, '1', '1');
    const posted = await advise(
      bet({
        player_id: 'adv-put',
        selections: [sel(e, '1', '1', odds)],
        foreign_selections: [{ id: 'f-1', value: '2' }],
      }),
    );
    const id = posted.bet.id as string;
    const put = (body: Record<string, unknown>) =>
      p.call('PUT', `/bets/advisory/${encodeURIComponent(id)}`, { token: p.accessToken, body });
    const settled = {
      status: { code: 3, reason: null },
      selections: [{ ...sel(e, '1', '1', odds), status: 1 }],
      foreign_selections: [{ id: 'f-1', value: '2', status: 2 }],
    };
    const v2 = await put(settled);
    expect(v2.status).toBe(200);
    expect(v2.json.bet).toMatchObject({ version: 2, status: { code: 3 } });
    // the same state again: nothing changes
    const same = await put(settled);
    expect(same.json.bet.version).toBe(2);
    // a selection left out is removed
    const replaced = await put({
      status: { code: 3 },
      selections: [{ ...sel(e, '1', '1', odds), status: 1 }],
    });
    expect(replaced.json.bet.version).toBe(3);
    expect(replaced.json.bet.foreign_selections).toEqual([]);
    const versions = await p.call('GET', `/bets/advisory/${encodeURIComponent(id)}/versions`, {
      token: p.accessToken,
    });
    expect(versions.json.items.map((i: { version: number }) => i.version)).toEqual([1, 2, 3]);
    expect(versions.json.items[0].state.foreign_selections).toEqual([{ id: 'f-1', value: '2.000000' }]);
    expect(versions.json.items[1].state.foreign_selections).toEqual([
      { id: 'f-1', value: '2.000000', status: 2 },
    ]);

    // invalid parameters: 400 naming the field; unknown bet: 404; settled back to accepted: 409
    const bad = await put({ status: { code: 3 }, selections: [{ ...sel(e, '1', '1', 'abc') }] });
    expect(bad.status).toBe(400);
    const over = await put({
      status: { code: 3 },
      selections: [],
      foreign_cash_out_orders: [
        {
          id: 'c-1',
          amount: '10.5',
          refund_amount: '12',
          status: { code: 'accepted' },
          created_at: '2024-05-01T12:00:00Z',
        },
      ],
    });
    expect(over.status).toBe(400);
    expect(over.json.error.details.field).toBe('foreign_cash_out_orders');
    const missing = await p.call('PUT', '/bets/advisory/no-such-bet', {
      token: p.accessToken,
      body: settled,
    });
    expect(missing.status).toBe(404);
    const back = await put({ ...settled, status: { code: 1 } });
    expect(back.status).toBe(409);
    expect(
      (await p.call('GET', `/bets/advisory/${encodeURIComponent(id)}/versions`, { token: p.accessToken }))
        .json.items,
    ).toHaveLength(3);
  });
});
