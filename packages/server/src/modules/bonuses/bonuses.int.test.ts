import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase } from '../../testing/database.js';
import { injectJson } from '../../testing/inject.js';
import { type ManualClock, manualClock, partnerWithToken } from '../../testing/partner.js';

const singleOnly = [
  { type: 'bet_details', data: { bet_details: [{ type: 'single', data: { sport: ['football'] } }] } },
];

describe(`bonus REST: freebets, insurance, bet boosts (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let clock: ManualClock;
  let headers: { authorization: string };
  let otherHeaders: { authorization: string };

  async function call(method: 'GET' | 'POST', url: string, body?: unknown, h = headers) {
    const res = await injectJson(t.app, method, url, body, h);
    return { status: res.statusCode, json: res.body ? res.json() : undefined };
  }

  const freebet = (over: Record<string, unknown> = {}) => ({
    player_id: 'p1',
    currency_code: 'EUR',
    amount: '5',
    conditions: singleOnly,
    ...over,
  });

  beforeAll(async () => {
    clock = manualClock(Date.parse('2030-01-01T00:00:00Z'));
    t = await createTestApp(await createTestDatabase(), { clock });
    headers = (await partnerWithToken({ database: t.deps.database }, t.app, { currencies: ['EUR', 'USD'] }))
      .headers;
    otherHeaders = (await partnerWithToken({ database: t.deps.database }, t.app)).headers;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('documents every bonus route in /openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/freebet/create',
      '/freebet/create/bulk',
      '/freebet/update',
      '/freebet/cancel',
      '/freebet/{id}',
      '/freebets',
      '/insurance/create',
      '/insurance/update',
      '/insurance/{id}',
      '/insurances',
      '/bet-boosts',
      '/bet-boosts/{id}',
    ]) {
      expect(paths).toContain(p);
    }
  });

  describe('freebets', () => {
    it('creates a freebet and returns the record with conditions and foreign_params as sent', async () => {
      const r = await call(
        'POST',
        '/freebet/create',
        freebet({ foreign_params: { campaign: 'x', n: [1, { a: null }] } }),
      );
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({
        player_id: 'p1',
        currency_code: 'EUR',
        amount: '5.000000',
        expires_at: null,
        conditions: singleOnly,
        foreign_params: { campaign: 'x', n: [1, { a: null }] },
        status: 'available',
        used_on_bet_id: null,
        used_at: null,
        idempotence_id: null,
      });
      expect((await call('GET', `/freebet/${r.json.id}`)).json).toEqual(r.json);
    });

    it('is idempotent on idempotence_id (same body → the same freebet, another body → 409)', async () => {
      const a = await call('POST', '/freebet/create', freebet({ idempotence_id: 'k1' }));
      const b = await call('POST', '/freebet/create', freebet({ idempotence_id: 'k1' }));
      expect([a.status, b.status]).toEqual([201, 200]);
      expect(b.json).toEqual(a.json);
      const c = await call('POST', '/freebet/create', freebet({ idempotence_id: 'k1', amount: '6' }));
      expect(c.status).toBe(409);
      expect(c.json.error.details.field).toBe('idempotence_id');
      // another white label may use the same key
      expect(
        (await call('POST', '/freebet/create', freebet({ idempotence_id: 'k1' }), otherHeaders)).status,
      ).toBe(201);
    });

    it('creates concurrently with one idempotence_id exactly once', async () => {
      const all = await Promise.all(
        Array.from({ length: 5 }, () => call('POST', '/freebet/create', freebet({ idempotence_id: 'race' }))),
      );
      expect(new Set(all.map((r) => r.json.id)).size).toBe(1);
      expect(all.filter((r) => r.status === 201)).toHaveLength(1);
    });

    it('rejects a condition that does not apply to its bet type, naming it', async () => {
      const r = await call(
        'POST',
        '/freebet/create',
        freebet({
          conditions: [
            {
              type: 'bet_details',
              data: { bet_details: [{ type: 'single', data: { odds_count: { min: 2 } } }] },
            },
          ],
        }),
      );
      expect(r.status).toBe(400);
      expect(r.json.error.details.field).toBe('body.conditions[0].data.bet_details[0].data.odds_count');
      expect(r.json.error.message).toContain('does not apply to a single bet');
    });

    it.each([
      [{ conditions: [] }, 'body.conditions'],
      [{ amount: '0' }, 'body.amount'],
      [{ amount: '1.0000001' }, 'body.amount'],
      [{ amount: 5 }, 'body.amount'],
      [{ currency_code: 'GBP' }, 'body.currency_code'],
      [{ expires_at: '2029-12-31T00:00:00Z' }, 'body.expires_at'],
      [{ extra: 1 }, 'body.extra'],
    ])('rejects %j naming %s', async (over, field) => {
      const r = await call('POST', '/freebet/create', freebet(over));
      expect(r.status).toBe(400);
      expect(r.json.error.details.field).toBe(field);
    });

    it('creates in bulk and answers per item', async () => {
      const r = await call('POST', '/freebet/create/bulk', {
        items: [
          freebet({ player_id: 'b1', idempotence_id: 'bulk-1' }),
          freebet({ player_id: 'b2', amount: '0' }),
          freebet({ player_id: 'b1', idempotence_id: 'bulk-1' }),
          freebet({ player_id: 'b3', currency_code: 'USD' }),
        ],
      });
      expect(r.status).toBe(200);
      expect(r.json.items.map((i: { status: number }) => i.status)).toEqual([201, 400, 200, 201]);
      expect(r.json.items[1].error).toMatchObject({
        code: 'validation_error',
        details: { field: 'body.amount' },
      });
      expect(r.json.items[2].freebet.id).toBe(r.json.items[0].freebet.id);
      expect(r.json.items[3].freebet).toMatchObject({ player_id: 'b3', currency_code: 'USD' });
    });

    it('answers per item even when an item does not fit the schema; a body without items is 400', async () => {
      const r = await call('POST', '/freebet/create/bulk', {
        items: [
          freebet({ player_id: 'bs1' }),
          { player_id: 'bs2', amount: 5 },
          freebet({ player_id: 'bs3', x: 1 }),
        ],
      });
      expect(r.status).toBe(200);
      expect(r.json.items.map((i: { status: number }) => i.status)).toEqual([201, 400, 400]);
      expect(r.json.items[1].error).toMatchObject({ code: 'validation_error' });
      expect(r.json.items[1].error.details.field).toMatch(/^body\./);
      expect(r.json.items[2].error.details.field).toBe('body.x');
      for (const bad of [{}, { items: [] }, { items: 'x' }]) {
        const w = await call('POST', '/freebet/create/bulk', bad);
        expect(w.status).toBe(400);
        expect(w.json.error.details.field).toBe('body.items');
      }
    });

    it('updates an available freebet and cancels it; a cancelled freebet cannot change', async () => {
      const { json: f } = await call('POST', '/freebet/create', freebet({ player_id: 'u1' }));
      const u = await call('POST', '/freebet/update', {
        id: f.id,
        amount: '7.5',
        expires_at: '2030-02-01T00:00:00Z',
        foreign_params: { v: 2 },
      });
      expect(u.status).toBe(200);
      expect(u.json).toMatchObject({
        amount: '7.500000',
        expires_at: '2030-02-01T00:00:00.000Z',
        foreign_params: { v: 2 },
      });
      const bad = await call('POST', '/freebet/update', {
        id: f.id,
        conditions: [
          {
            type: 'bet_details',
            data: { bet_details: [{ type: 'express', data: { system_size: { min: 1 } } }] },
          },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.json.error.details.field).toContain('system_size');
      const c = await call('POST', '/freebet/cancel', { id: f.id });
      expect(c.json.status).toBe('cancelled');
      expect((await call('POST', '/freebet/cancel', { id: f.id })).json.status).toBe('cancelled');
      const late = await call('POST', '/freebet/update', { id: f.id, amount: '1' });
      expect(late.status).toBe(409);
      expect(late.json.error.details.status).toBe('cancelled');
    });

    it('reads expired past expires_at, and can be given a new expiry', async () => {
      const { json: f } = await call(
        'POST',
        '/freebet/create',
        freebet({ player_id: 'x1', expires_at: new Date(clock.now() + 60_000).toISOString() }),
      );
      expect(f.status).toBe('available');
      clock.advance(120_000);
      expect((await call('GET', `/freebet/${f.id}`)).json.status).toBe('expired');
      const expired = await call('GET', '/freebets?player_id=x1&status=expired');
      expect(expired.json.items.map((i: { id: string }) => i.id)).toEqual([f.id]);
      expect((await call('GET', '/freebets?player_id=x1&status=available')).json.items).toEqual([]);
      const again = await call('POST', '/freebet/update', { id: f.id, expires_at: null });
      expect(again.json).toMatchObject({ status: 'available', expires_at: null });
    });

    it('lists a player’s freebets newest first, page by page', async () => {
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await call('POST', '/freebet/create', freebet({ player_id: 'lister', amount: String(i + 1) }));
      }
      const p1 = await call('GET', '/freebets?player_id=lister&limit=3');
      expect(p1.json.items.map((i: { amount: string }) => i.amount)).toEqual([
        '5.000000',
        '4.000000',
        '3.000000',
      ]);
      const p2 = await call('GET', `/freebets?player_id=lister&limit=3&cursor=${p1.json.next_cursor}`);
      expect(p2.json.items.map((i: { amount: string }) => i.amount)).toEqual(['2.000000', '1.000000']);
      expect(p2.json.next_cursor).toBeNull();
      expect((await call('GET', '/freebets?status=nope')).status).toBe(400);
      expect((await call('GET', '/freebets?cursor=zzz')).status).toBe(400);
    });

    it("answers 404 for another white label's freebet and never lists it", async () => {
      const { json: f } = await call('POST', '/freebet/create', freebet({ player_id: 'iso' }));
      expect((await call('GET', `/freebet/${f.id}`, undefined, otherHeaders)).status).toBe(404);
      expect((await call('POST', '/freebet/update', { id: f.id, amount: '1' }, otherHeaders)).status).toBe(
        404,
      );
      expect((await call('POST', '/freebet/cancel', { id: f.id }, otherHeaders)).status).toBe(404);
      expect((await call('GET', '/freebets?player_id=iso', undefined, otherHeaders)).json.items).toEqual([]);
      expect((await call('GET', '/freebet/not-a-uuid')).status).toBe(404);
      expect(
        (await call('GET', `/freebet/${f.id}`, undefined, { authorization: 'Bearer nope' })).status,
      ).toBe(401);
    });
  });

  describe('insurance', () => {
    const insurance = (over: Record<string, unknown> = {}) => ({
      player_id: 'p1',
      currency_code: 'EUR',
      type: 'percent',
      percent: '12.345678901234',
      max_amount: '50.5',
      strategies: { type: 'percent', max_odds_count_lose: 3 },
      stake_amount_range: { min: '5', max: '100' },
      conditions: [
        {
          type: 'bet_details',
          data: { bet_details: [{ type: 'express', data: { odds_count: { min: 3 } } }] },
        },
      ],
      foreign_params: { promo: 'spring' },
      ...over,
    });

    it('creates a percent insurance with 12 decimals and returns it as sent', async () => {
      const r = await call(
        'POST',
        '/insurance/create',
        insurance({ expires_at: '2031-01-01T00:00:00Z', idempotence_id: 'i-1' }),
      );
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({
        player_id: 'p1',
        currency_code: 'EUR',
        type: 'percent',
        amount: null,
        percent: '12.345678901234',
        max_amount: '50.500000000000',
        strategies: { type: 'percent', max_odds_count_lose: 3 },
        stake_amount_range: { min: '5', max: '100' },
        foreign_params: { promo: 'spring' },
        expires_at: '2031-01-01T00:00:00.000Z',
        status: 'available',
        bet_id: null,
        refund_amount: null,
      });
      expect((await call('GET', `/insurance/${r.json.id}`)).json).toEqual(r.json);
      expect(
        (
          await call(
            'POST',
            '/insurance/create',
            insurance({ expires_at: '2031-01-01T00:00:00Z', idempotence_id: 'i-1' }),
          )
        ).status,
      ).toBe(200);
    });

    it('creates a fixed-amount insurance without conditions', async () => {
      const r = await call('POST', '/insurance/create', {
        player_id: 'p2',
        currency_code: 'USD',
        type: 'amount',
        amount: '3',
      });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({
        type: 'amount',
        amount: '3.000000',
        percent: null,
        conditions: [],
        strategies: { type: 'amount', max_odds_count_lose: null },
      });
    });

    it.each([
      [
        {
          type: 'amount',
          amount: undefined,
          percent: undefined,
          max_amount: undefined,
          strategies: undefined,
        },
        'body.amount',
      ],
      [{ amount: '3' }, 'body.amount'],
      [{ percent: undefined }, 'body.percent'],
      [{ percent: '100.5' }, 'body.percent'],
      [{ percent: '1.0000000000001' }, 'body.percent'],
      [{ strategies: { type: 'amount' } }, 'body.strategies.type'],
      [{ stake_amount_range: { min: '10', max: '5' } }, 'body.stake_amount_range'],
      [
        {
          conditions: [
            {
              type: 'bet_details',
              data: { bet_details: [{ type: 'single', data: { total_odds_coefficient: { min: '2' } } }] },
            },
          ],
        },
        'body.conditions[0].data.bet_details[0].data.total_odds_coefficient',
      ],
      [{ strategies: { max_odds_count_lose: -1 } }, 'body.strategies.max_odds_count_lose'],
    ])('rejects %j naming %s', async (over, field) => {
      const r = await call('POST', '/insurance/create', insurance(over));
      expect(r.status).toBe(400);
      expect(r.json.error.details.field).toBe(field);
    });

    it('updates an available insurance (switching the payout type checks the rule whole)', async () => {
      const { json: i } = await call('POST', '/insurance/create', insurance({ player_id: 'upd' }));
      const toAmount = await call('POST', '/insurance/update', { id: i.id, type: 'amount' });
      expect(toAmount.status).toBe(400);
      expect(toAmount.json.error.details.field).toBe('body.amount');
      const r = await call('POST', '/insurance/update', {
        id: i.id,
        type: 'amount',
        amount: '4',
        strategies: { max_odds_count_lose: 1 },
        stake_amount_range: null,
      });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        type: 'amount',
        amount: '4.000000',
        percent: null,
        max_amount: null,
        stake_amount_range: null,
        strategies: { type: 'amount', max_odds_count_lose: 1 },
      });
      expect((await call('POST', '/insurance/update', { id: i.id, amount: '5' }, otherHeaders)).status).toBe(
        404,
      );
    });

    it('lists insurances by player and status', async () => {
      const { json: i } = await call('POST', '/insurance/create', insurance({ player_id: 'li' }));
      expect(
        (await call('GET', '/insurances?player_id=li')).json.items.map((x: { id: string }) => x.id),
      ).toEqual([i.id]);
      expect((await call('GET', '/insurances?player_id=li&status=paid')).json.items).toEqual([]);
      expect((await call('GET', `/insurance/${i.id}`, undefined, otherHeaders)).status).toBe(404);
    });
  });

  describe('bet boosts', () => {
    it('creates, reads and lists boosts with quantity and remaining_quantity', async () => {
      const r = await call('POST', '/bet-boosts', {
        multiplier: '1.25',
        quantity: 3,
        name: 'Weekend',
        conditions: [
          {
            type: 'bet_details',
            data: { bet_details: [{ type: 'express', data: { odds_count: { min: 3 } } }] },
          },
        ],
      });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({
        multiplier: '1.250000',
        quantity: 3,
        remaining_quantity: 3,
        status: 'active',
        player_id: null,
        name: 'Weekend',
      });
      expect((await call('GET', `/bet-boosts/${r.json.id}`)).json).toEqual(r.json);
      expect((await call('GET', '/bet-boosts')).json.items.map((b: { id: string }) => b.id)).toContain(
        r.json.id,
      );
      expect((await call('GET', `/bet-boosts/${r.json.id}`, undefined, otherHeaders)).status).toBe(404);
      expect((await call('GET', '/bet-boosts', undefined, otherHeaders)).json.items).toEqual([]);
    });

    it.each([
      [{ multiplier: '1' }, 'body.multiplier'],
      [{ multiplier: '0.9' }, 'body.multiplier'],
      [{ multiplier: '1.0000001' }, 'body.multiplier'],
      [{ quantity: 0 }, 'body.quantity'],
      [
        {
          conditions: [
            {
              type: 'bet_details',
              data: { bet_details: [{ type: 'express', data: { combinations_count: { max: 3 } } }] },
            },
          ],
        },
        'body.conditions[0].data.bet_details[0].data.combinations_count',
      ],
    ])('rejects %j naming %s', async (over, field) => {
      const r = await call('POST', '/bet-boosts', { multiplier: '1.1', quantity: 1, ...over });
      expect(r.status).toBe(400);
      expect(r.json.error.details.field).toBe(field);
    });
  });
});
