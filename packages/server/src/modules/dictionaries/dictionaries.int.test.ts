import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase } from '../../testing/database.js';
import { partnerWithToken } from '../../testing/partner.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';

describe(`partner REST dictionaries (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await createTestApp(await createTestDatabase());
    token = (await partnerWithToken({ database: t.deps.database }, t.app, { currencies: ['EUR', 'USD'] }))
      .token;
    otherToken = (await partnerWithToken({ database: t.deps.database }, t.app, { currencies: ['GBP'] }))
      .token;
    await createSportEvent(t.deps, sampleEvent({ markets: 2 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  async function get(url: string, as = token) {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${as}` } });
    return { status: res.statusCode, json: res.json() };
  }

  it('names bet statuses and restriction types in English by default and in German on request', async () => {
    const en = await get('/dictionaries/bet-statuses');
    expect(en.status).toBe(200);
    expect(en.json.locale).toBe('en');
    expect(en.json.items.map((i: { id: number }) => i.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 10, 11]);
    expect(en.json.items[0]).toEqual({ id: 1, name: 'Accepted' });
    const de = await get('/dictionaries/bet-statuses?locale=de');
    expect(de.json.items[0]).toEqual({ id: 1, name: 'Angenommen' });
    const r = await get('/dictionaries/restriction-types?locale=de');
    expect(r.json.items).toHaveLength(24);
    expect(r.json.items.find((i: { id: string }) => i.id === 'not_enough_balance').name).toBe(
      'Guthaben reicht nicht',
    );
  });

  it('lists the sports, tournaments and market types of the book', async () => {
    const sports = await get('/dictionaries/sports?locale=es');
    expect(sports.json.items).toEqual([{ id: 'football', name: 'Fútbol' }]);
    const tournaments = await get('/dictionaries/tournaments');
    expect(tournaments.json.items).toEqual([{ id: 't1', name: 'Premier League', sport_id: 'football' }]);
    const markets = await get('/dictionaries/market-types?locale=de');
    expect(markets.json.items.find((i: { id: string }) => i.id === '1')).toEqual({
      id: '1',
      name: '1X2 (Dreiweg)',
    });
  });

  it('lists the caller’s own currencies, named in the locale', async () => {
    const mine = await get('/dictionaries/currencies?locale=de');
    expect(mine.json.items).toEqual([
      { id: 'EUR', name: 'Euro' },
      { id: 'USD', name: 'US-Dollar' },
    ]);
    const theirs = await get('/dictionaries/currencies', otherToken);
    expect(theirs.json.items.map((i: { id: string }) => i.id)).toEqual(['GBP']);
  });

  it('refuses an unknown dictionary or locale naming the field, and anonymous callers', async () => {
    const name = await get('/dictionaries/planets');
    expect(name.status).toBe(400);
    expect(name.json.error.details.field).toBe('params.name');
    const locale = await get('/dictionaries/sports?locale=xx');
    expect(locale.status).toBe(400);
    expect(locale.json.error.details.field).toBe('querystring.locale');
    expect((await t.app.inject({ method: 'GET', url: '/dictionaries/sports' })).statusCode).toBe(401);
  });
});
