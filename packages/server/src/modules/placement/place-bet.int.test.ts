import { isCallbackBody } from '@bookie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { startBackground } from '../../app/wiring.js';
import { createTestDatabase } from '../../testing/database.js';
import { createPartner, createSession, partnerToken } from '../../testing/partner.js';
import { scriptedPartner, waitUntil } from '../../testing/scripted-partner.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';
import { patchMarkets } from '../trading/patch-markets.js';
import { setBetStop } from '../trading/set-bet-stop.js';
import { updateFixture } from '../trading/update-fixture.js';
import { recoverPlacements } from './recover-placements.js';

type Partner = Awaited<ReturnType<typeof scriptedPartner>>;

describe(`bet placement (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let partner: Partner;
  let session: string;
  let eventA: string;
  let eventB: string;

  async function trading<T extends { version: bigint }>(p: Promise<T>): Promise<T> {
    const r = await p;
    await t.deps.feed.catalog.waitFor(r.version);
    return r;
  }

  async function newSession(playerId: string, wlOpts: Record<string, unknown> = {}) {
    const wl = await createPartner({ database: t.deps.database }, { callback_url: partner.url, ...wlOpts });
    const token = await partnerToken(t.app, wl.clientId, wl.clientSecret);
    return createSession(t.app, token, { player_id: playerId, params: { session: playerId } });
  }

  async function place(body: Record<string, unknown>, token = session) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 1,
        ...body,
      }),
    });
    return { status: res.statusCode, json: res.json() };
  }

  /** The bet's outbox rows, in their order (the per-bet order of its callbacks). */
  async function outboxOf(betId: string) {
    return t.deps.database.db
      .selectFrom('callback_delivery')
      .select(['path', 'mode', 'status', 'attempts', 'last_status', 'last_error', 'request_id', 'body'])
      .select((e) => e.ref('foreign_params').as('foreignParams'))
      .where('bet_id', '=', betId)
      .orderBy('id')
      .execute();
  }

  const single = (event: string, odd = '1', odds = '1.5') => ({
    selections: [{ sport_event_id: event, market_id: '1', odd_id: odd, odds }],
  });

  beforeAll(async () => {
    partner = await scriptedPartner();
    const db = await createTestDatabase();
    t = await createTestApp(db, { env: { PLACEMENT_DEADLINE_MS: '6000', SYSTEM_MAX_COMBINATIONS: '3' } });
    await startBackground(t.deps);
    eventA = (await trading(createSportEvent(t.deps, sampleEvent({ markets: 2 })))).id;
    eventB = (await trading(createSportEvent(t.deps, sampleEvent({ markets: 2, name: 'Spurs' })))).id;
    session = await newSession('p1', { limits: { min_stake: '1', max_stake: '500', max_payout: null } });
  });
  afterAll(async () => {
    await t?.close();
    await partner?.close();
  });

  it('holds, accepts and calls back /bet/accept with the spec 01 fields', async () => {
    const before = partner.received.length;
    const r = await place(single(eventA));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 1,
      state: 'accepted',
      stake: '10.000000',
      total_odds: '1.500000',
    });
    await waitUntil(() => partner.at('/bet/accept').some((c) => c.json.bet_id === r.json.id));
    const mine = partner.received.slice(before).filter((c) => c.json.bet_id === r.json.id);
    expect(mine.map((c) => c.path)).toEqual(['/bet/place', '/bet/accept']);
    const [placeCb, acceptCb] = mine;
    expect(isCallbackBody('place', placeCb!.json)).toBe(true);
    expect(isCallbackBody('accept', acceptCb!.json)).toBe(true);
    expect(placeCb!.json).toMatchObject({
      bet_player_id: 'p1',
      bet_type: 1,
      bet_stake: '10.000000',
      bet_freebet_id: '',
      total_odds_value: '1.500000',
      bet_system_sizes: [1],
      bet_bet_builder_odds: [],
      competitors: [
        { id: 'c1', type: 2 },
        { id: 'c2', type: 2 },
      ],
    });
    expect(placeCb!.json.bet_created_at).toMatch(/\+00:00$/);
    expect((placeCb!.json.bet_odds as unknown[])[0]).toMatchObject({
      odd_id: '1',
      odd_ratio: '1.500000',
      odd_status: 0,
      match_id: eventA,
      market_id: '1',
      meta: { sport_event_info_state: 'prematch', sport_event_info_sport_id: 'football' },
    });
    expect(placeCb!.json.request_id).not.toBe(acceptCb!.json.request_id);
    expect(placeCb!.headers['foreign-params']).toBe('{"session":"p1"}');
    expect(placeCb!.headers['webhook-signature']).toMatch(/^v1,/);
    // the /bet/place row is written once, delivered, with the bytes sent; before the /bet/accept
    await waitUntil(async () => (await outboxOf(r.json.id))[1]?.status === 'delivered');
    expect(await outboxOf(r.json.id)).toEqual([
      {
        path: '/bet/place',
        mode: 'sync',
        status: 'delivered',
        attempts: 1,
        last_status: 204,
        last_error: null,
        request_id: placeCb!.json.request_id,
        body: placeCb!.body,
        foreignParams: '{"session":"p1"}',
      },
      expect.objectContaining({ path: '/bet/accept', mode: 'async', request_id: acceptCb!.json.request_id }),
    ]);
  });

  it('returns the same bet for a repeated client key', async () => {
    const a = await place({ ...single(eventA, '2', '2.5'), client_key: 'k-1' });
    const b = await place({ ...single(eventA, '2', '2.5'), client_key: 'k-1' });
    expect(a.status).toBe(200);
    expect(b.json.id).toBe(a.json.id);
    expect(partner.at('/bet/place').filter((c) => c.json.bet_id === a.json.id)).toHaveLength(1);
  });

  it('declines bet types that do not fit their selections (bet_type), with no maximum number of selections', async () => {
    const reasons = async (body: Record<string, unknown>) => {
      const r = await place(body);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.json.status).toBe(2);
      return (r.json.restrictions as Array<{ type: string; context: Record<string, unknown> }>).filter(
        (x) => x.type === 'bet_type',
      );
    };
    // a one-selection express
    expect(await reasons({ bet_type: 'express', ...single(eventA) })).toEqual([
      {
        type: 'bet_type',
        context: expect.objectContaining({ bet_type: 'express', reason: 'express_needs_two_selections' }),
      },
    ]);
    // 31 selections are not refused by a cap (here they share a sport event, which the express rules decline)
    const many = Array.from({ length: 31 }, () => ({
      sport_event_id: eventA,
      market_id: '1',
      odd_id: '1',
      odds: '1.5',
    }));
    expect((await reasons({ bet_type: 'express', selections: many }))[0]!.context.reason).toBe(
      'selections_on_same_sport_event',
    );
    // a system beyond SYSTEM_MAX_COMBINATIONS (3 here): 2 of 3 has 3 combinations, 2+3 of 3 has 4
    const three = [eventA, eventB, eventA].map((e, i) => ({
      sport_event_id: i === 2 ? eventB : e,
      market_id: String((i % 2) + 1),
      odd_id: '1',
      odds: '1.5',
    }));
    const tooMany = await reasons({ bet_type: 'system', system_sizes: [2, 3], selections: three });
    expect(tooMany.map((x) => x.context)).toContainEqual(
      expect.objectContaining({ reason: 'too_many_combinations', max_combinations: 3 }),
    );
    // GET /restrictions decides the same: the one decision, read with the same settings
    const wl = await createPartner({ database: t.deps.database }, { callback_url: partner.url });
    const token = await partnerToken(t.app, wl.clientId, wl.clientSecret);
    const query = [
      'player_id=p-system',
      'type_code=2',
      'system_sizes=2,3',
      'currency_code=EUR',
      ...three.map(
        (s) => `selection=${encodeURIComponent([s.sport_event_id, s.market_id, s.odd_id, s.odds].join('/'))}`,
      ),
    ].join('&');
    const preview = await t.app.inject({
      method: 'GET',
      url: `/restrictions?${query}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(
      (preview.json().restrictions as Array<{ context: Record<string, unknown> }>).map((x) => x.context),
    ).toContainEqual(expect.objectContaining({ reason: 'too_many_combinations', max_combinations: 3 }));
  });

  it('declines bets on a market trading marked defective (market_defective); the feed shows the flag', async () => {
    const marked = await trading(
      patchMarkets(t.deps, { id: eventB, body: { markets: [{ id: '2', is_defective: true }] } }),
    );
    expect(t.deps.feed.catalog.getEvent(eventB)!.markets['2']!.is_defective).toBe(true);
    const row = await t.deps.database.db
      .selectFrom('feed_log')
      .select('line')
      .where('v', '=', marked.version)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.line).changes).toMatchObject({ 'markets/2/is_defective': true });
    const r = await place({
      selections: [{ sport_event_id: eventB, market_id: '2', odd_id: '1', odds: '1.5' }],
    });
    expect(r.json.status).toBe(2);
    expect(r.json.restrictions).toContainEqual({
      type: 'market_defective',
      context: expect.objectContaining({ sport_event_id: eventB, market_id: '2' }),
    });
    await trading(
      patchMarkets(t.deps, { id: eventB, body: { markets: [{ id: '2', is_defective: false }] } }),
    );
    const ok = await place({
      selections: [{ sport_event_id: eventB, market_id: '2', odd_id: '1', odds: '1.5' }],
    });
    expect(ok.json.status).toBe(1);
  });

  it('lists suspended events in the frame, and suspended markets with their odds hidden (spec 02)', async () => {
    const e = (await trading(createSportEvent(t.deps, sampleEvent({ markets: 2, name: 'Suspended FC' })))).id;
    await trading(updateFixture(t.deps, { id: e, body: { status: 2 } }));
    await trading(patchMarkets(t.deps, { id: e, body: { markets: [{ id: '1', status: 1 }] } }));
    const list = async (q: string) => {
      const r = await t.app.inject({
        method: 'GET',
        url: `/frame-api/sport-events${q}`,
        headers: { authorization: `Bearer ${session}` },
      });
      return (r.json().items as Array<{ id: string; markets: Record<string, { odds: object }> }>).find(
        (x) => x.id === e,
      );
    };
    for (const q of ['', '?state=live']) {
      const shown = await list(q);
      expect(shown, q).toBeDefined();
      expect(shown!.markets['1']!.odds).toEqual({});
      expect(Object.keys(shown!.markets['2']!.odds).length).toBeGreaterThan(0);
    }
    expect(await list('?state=prematch')).toBeUndefined();
    // the replica keeps the odds: only the frame hides them
    expect(Object.keys(t.deps.feed.catalog.getEvent(e)!.markets['1']!.odds).length).toBeGreaterThan(0);
  });

  it('answers 409 idempotency_conflict when a client key comes back with another bet', async () => {
    const a = await place({ ...single(eventA, '2', '2.5'), client_key: 'k-2' });
    expect(a.status).toBe(200);
    // the same bet written differently is a repeat
    const same = await place({ ...single(eventA, '2', '2.50'), stake: '10.0', client_key: 'k-2' });
    expect(same.json.id).toBe(a.json.id);
    for (const other of [
      { ...single(eventA, '2', '2.5'), stake: '11', client_key: 'k-2' },
      { ...single(eventA, '1', '1.5'), client_key: 'k-2' },
    ]) {
      const r = await place(other);
      expect(r.status).toBe(409);
      expect(r.json.error).toMatchObject({
        code: 'idempotency_conflict',
        details: { field: 'client_key', bet_id: a.json.id },
      });
    }
    expect(partner.at('/bet/place').filter((c) => c.json.bet_id === a.json.id)).toHaveLength(1);
  });

  it('declines with every failing restriction and calls back /bet/decline', async () => {
    const s = await newSession('p2', { limits: { min_stake: '5', max_stake: '20', max_payout: null } });
    const r = await place(
      {
        bet_type: 'express',
        stake: '25',
        odds_strategy: 2,
        selections: [
          { sport_event_id: eventA, market_id: '1', odd_id: '1', odds: '1.6' },
          { sport_event_id: eventA, market_id: '2', odd_id: '1', odds: '1.5' },
        ],
      },
      s,
    );
    expect(r.status).toBe(200);
    expect(r.json.status).toBe(2);
    const types = (r.json.restrictions as Array<{ type: string }>).map((x) => x.type).sort();
    expect(types).toEqual(['bet_type', 'max_bet', 'selection_value']);
    const maxBet = (r.json.restrictions as Array<{ type: string; context: Record<string, unknown> }>).find(
      (x) => x.type === 'max_bet',
    );
    expect(maxBet!.context).toMatchObject({ max_bet: '20.000000', sport_event_id: eventA });
    await waitUntil(() => partner.at('/bet/decline').some((c) => c.json.bet_id === r.json.id));
    const decline = partner.at('/bet/decline').find((c) => c.json.bet_id === r.json.id)!;
    expect(isCallbackBody('decline', decline.json)).toBe(true);
    expect((decline.json.restrictions as unknown[]).length).toBe(3);
    // in callbacks max_bet is a JSON number (spec 01); the frame API keeps the decimal string
    const cbMaxBet = (
      decline.json.restrictions as Array<{ type: string; context: Record<string, unknown> }>
    ).find((x) => x.type === 'max_bet');
    expect(cbMaxBet!.context).toEqual({ max_bet: 20, sport_event_id: eventA });
    const small = await place({ ...single(eventB), stake: '1' }, s);
    expect(small.json.restrictions).toEqual([
      { type: 'min_bet', context: { min_bet: '5.000000', max_bet: '20.000000', sport_event_id: eventB } },
    ]);
  });

  it('applies the odds acceptance strategies to moved odds', async () => {
    const moved = await trading(
      patchMarkets(t.deps, {
        id: eventB,
        body: { markets: [{ id: '1', odds: [{ id: '3', value: '3.7' }] }] },
      }),
    );
    expect(moved.version).toBeGreaterThan(0n);
    const s = await newSession('p3');
    const unchanged = await place({ ...single(eventB, '3', '3.5'), odds_strategy: 1 }, s);
    expect(unchanged.json.status).toBe(2);
    expect(unchanged.json.restrictions[0]).toMatchObject({
      type: 'selection_value',
      context: { value: '3.700000' },
    });
    const up = await place({ ...single(eventB, '3', '3.5'), odds_strategy: 2 }, s);
    expect(up.json).toMatchObject({ status: 1, total_odds: '3.700000' });
    const down = await place({ ...single(eventB, '3', '3.9'), odds_strategy: 2 }, s);
    expect(down.json.status).toBe(2);
    const any = await place({ ...single(eventB, '3', '3.9'), odds_strategy: 3 }, s);
    expect(any.json).toMatchObject({ status: 1, total_odds: '3.700000' });
    expect(any.json.selections[0]).toMatchObject({ requested_odds: '3.900000', odds: '3.700000' });
  });

  it('declines on bet stop (acceptance rule) and refuses selections that do not exist', async () => {
    await trading(setBetStop(t.deps, { id: eventB, betStop: true }));
    const s = await newSession('p4');
    const r = await place(single(eventB), s);
    expect(r.json.status).toBe(2);
    expect(r.json.restrictions.map((x: { type: string }) => x.type)).toEqual(['sport_event_bet_stop']);
    await trading(setBetStop(t.deps, { id: eventB, betStop: false }));
    const missing = await place(
      { selections: [{ sport_event_id: eventB, market_id: '9', odd_id: '1', odds: '1.5' }] },
      s,
    );
    expect(missing.status).toBe(422);
    expect(missing.json.error.details.restrictions[0].type).toBe('market_existence');
  });

  it("enforces bet_interval between a player's bets on one event", async () => {
    const s = await newSession('p5', { bet_interval: 60 });
    expect((await place(single(eventA), s)).json.status).toBe(1);
    const again = await place(single(eventA), s);
    expect(again.json.status).toBe(2);
    expect(again.json.restrictions[0].type).toBe('bet_interval');
    expect(Number(again.json.restrictions[0].context.time_to_wait)).toBeGreaterThan(50);
    expect((await place(single(eventB), s)).json.status).toBe(1);
  });

  it("delivers the decisions' callbacks without claiming them: the outbox is claimed only at its poll", async () => {
    const dispatcher = t.deps.callbacks.dispatcher;
    const before = dispatcher.stats();
    const started = Date.now();
    const n = 8;
    for (let i = 0; i < n; i++) {
      const r = await place(single(eventB, '1', '1.5'));
      expect(r.json.status).toBe(1);
      await waitUntil(() => partner.at('/bet/accept').some((c) => c.json.bet_id === r.json.id));
    }
    const elapsed = Date.now() - started;
    const after = dispatcher.stats();
    expect(after.delivered - before.delivered).toBeGreaterThanOrEqual(n);
    // a claim per placement would be at least n; the poll (CALLBACK_POLL_MS, 1 s) claims once a second
    expect(after.claims - before.claims).toBeLessThanOrEqual(Math.min(n - 1, Math.ceil(elapsed / 1000) + 1));
  });

  it('places bets that arrive together through one group commit, each with its own outcome and callback', async () => {
    const s = await newSession('p-batch', { limits: { min_stake: '1', max_stake: '50', max_payout: null } });
    const before = partner.received.length;
    const bodies = [
      single(eventA, '1', '1.5'),
      single(eventB, '1', '1.5'),
      { ...single(eventA, '2', '2.5'), stake: '60' }, // max_bet
      { ...single(eventA, '3', '9.99'), odds_strategy: 1 }, // the price moved: selection_value
      { ...single(eventB, '2', '2.5'), client_key: 'batch-k' },
      { ...single(eventB, '2', '2.5'), client_key: 'batch-k' }, // the same client key at the same moment
    ];
    const rs = await Promise.all(bodies.map((b) => place(b, s)));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(rs.slice(0, 5).map((r) => r.json.status)).toEqual([1, 1, 2, 2, 1]);
    expect(rs[2]!.json.restrictions.map((x: { type: string }) => x.type)).toEqual(['max_bet']);
    expect(rs[3]!.json.restrictions.map((x: { type: string }) => x.type)).toEqual(['selection_value']);
    // the repeat gets the bet the first request formed, as it stands (still held, or already accepted)
    expect(rs[5]!.json.id).toBe(rs[4]!.json.id);
    expect([0, 1]).toContain(rs[5]!.json.status);
    const ids = [...new Set(rs.map((r) => r.json.id as string))];
    expect(ids).toHaveLength(5);
    await waitUntil(
      () => partner.received.slice(before).filter((c) => c.path !== '/bet/place').length >= ids.length,
    );
    const mine = partner.received.slice(before);
    for (const [i, r] of rs.slice(0, 5).entries()) {
      const id = r.json.id as string;
      // one hold per bet (the client key's repeat makes none); a retry after a slow attempt (D9) repeats its body
      const holds = mine.filter((c) => c.path === '/bet/place' && c.json.bet_id === id);
      expect(holds.length).toBeGreaterThanOrEqual(1);
      expect(new Set(holds.map((c) => JSON.stringify(c.json))).size).toBe(1);
      const decision = mine.filter((c) => c.path !== '/bet/place' && c.json.bet_id === id);
      expect(decision.map((c) => c.path)).toEqual([r.json.status === 1 ? '/bet/accept' : '/bet/decline']);
      if (i < 2) expect(decision[0]!.json.bet_id).toBe(id);
    }
  });

  it('ends a refused hold as Place Error, without a decline', async () => {
    const s = await newSession('broke');
    partner.setAnswer((r) =>
      r.path === '/bet/place' && r.json.bet_player_id === 'broke'
        ? {
            status: 400,
            body: { error: { code: 'not_enough_balance', data: { actual_balance: '3.000000' } } },
          }
        : { status: 204 },
    );
    const r = await place(single(eventA), s);
    partner.setAnswer(() => ({ status: 204 }));
    expect(r.json.status).toBe(10);
    expect(r.json.restrictions).toEqual([
      { type: 'not_enough_balance', context: { actual_balance: '3.000000' } },
    ]);
    await new Promise((res) => setTimeout(res, 200));
    expect(partner.received.filter((c) => c.json.bet_id === r.json.id).map((c) => c.path)).toEqual([
      '/bet/place',
    ]);
    expect(await outboxOf(r.json.id)).toEqual([
      expect.objectContaining({
        path: '/bet/place',
        status: 'failed',
        attempts: 1,
        last_status: 400,
        last_error: 'refused: not_enough_balance',
        body: partner.at('/bet/place').find((c) => c.json.bet_id === r.json.id)!.body,
      }),
    ]);
  });

  it('retries /bet/place, then force-declines with a /bet/decline (D9)', async () => {
    const s = await newSession('flaky');
    partner.setAnswer((r) =>
      r.path === '/bet/place' && r.json.bet_player_id === 'flaky' ? { status: 503 } : { status: 204 },
    );
    const r = await place(single(eventA), s);
    partner.setAnswer(() => ({ status: 204 }));
    expect(r.json.status).toBe(11);
    // the cause rides with the bet: attempts, the last HTTP status and error
    expect(r.json.restrictions).toEqual([
      {
        type: 'internal_error',
        context: {
          code: 'place_retry_limit_reached',
          attempts: 3,
          last_status: 503,
          last_error: expect.stringMatching(/^HTTP 503/),
        },
      },
    ]);
    const places = partner.at('/bet/place').filter((c) => c.json.bet_id === r.json.id);
    expect(places).toHaveLength(3);
    expect(new Set(places.map((p) => p.body)).size).toBe(1);
    await waitUntil(() => partner.at('/bet/decline').some((c) => c.json.bet_id === r.json.id));
    // the partner has the decline; its outbox row records the answer once the dispatcher has read it
    await waitUntil(async () => (await outboxOf(r.json.id))[1]?.status === 'delivered');
    expect((await outboxOf(r.json.id)).map((d) => [d.path, d.status, d.attempts, d.last_status])).toEqual([
      ['/bet/place', 'failed', 3, 503],
      ['/bet/decline', 'delivered', 1, 204],
    ]);
  });

  it('force-declines a placement a crash left waiting for its hold', async () => {
    const s = await newSession('crash');
    // the partner never answers in time: the bet stays in hold_requested while we look
    partner.setAnswer((r) =>
      r.path === '/bet/place' && r.json.bet_player_id === 'crash'
        ? { status: 204, delayMs: 10_000 }
        : { status: 204 },
    );
    const pending = place(single(eventA), s);
    await waitUntil(() => partner.at('/bet/place').some((c) => c.json.bet_player_id === 'crash'));
    const betId = partner.at('/bet/place').find((c) => c.json.bet_player_id === 'crash')!.json
      .bet_id as string;
    // simulate the deadline passing
    await t.deps.database.db
      .updateTable('bet')
      .set({ placement_deadline: new Date(Date.now() - 1000) })
      .where('id', '=', betId)
      .execute();
    expect(await recoverPlacements(t.deps.database)).toEqual([betId]);
    // the recovery writes the /bet/place it interrupted, failed, with the bytes the partner received; the
    // /bet/decline after it
    const sent = partner.at('/bet/place').find((c) => c.json.bet_id === betId)!;
    const recovered = await outboxOf(betId);
    expect(recovered.map((d) => d.path)).toEqual(['/bet/place', '/bet/decline']);
    expect(recovered[0]).toEqual({
      path: '/bet/place',
      mode: 'sync',
      status: 'failed',
      attempts: 0,
      last_status: null,
      last_error: 'placement interrupted',
      request_id: sent.json.request_id,
      body: sent.body,
      foreignParams: '{"session":"crash"}',
    });
    const r = await pending;
    partner.setAnswer(() => ({ status: 204 }));
    expect(r.json).toMatchObject({ id: betId, status: 11 });
    expect(r.json.restrictions[0].context.code).toBe('placement_interrupted');
    await waitUntil(() => partner.at('/bet/decline').some((c) => c.json.bet_id === betId));
    // the placement's own outcome (its attempts timed out) is recorded over the recovery's, in the same row
    const after = await outboxOf(betId);
    expect(after.map((d) => [d.path, d.request_id])).toEqual(recovered.map((d) => [d.path, d.request_id]));
    expect(after[0]).toMatchObject({ status: 'failed', attempts: 3 });
  }, 30_000);
});
