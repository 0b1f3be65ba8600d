import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase } from '../../testing/database.js';
import { TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { createSportEvent } from './create-sport-event.js';
import { sampleEvent } from './fixtures.js';
import { setBetStop } from './set-bet-stop.js';

describe(`the live book: GET /trading/sport-events (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let first: string;
  let second: string;
  beforeAll(async () => {
    t = await createTestApp(await createTestDatabase());
    first = (await createSportEvent(t.deps, sampleEvent({ markets: 2 }))).id;
    second = (await createSportEvent(t.deps, sampleEvent({ markets: 3 }))).id;
    await setBetStop(t.deps, { id: first, betStop: true });
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (url: string, token = TEST_ADMIN_TOKEN) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  it('lists the events most recently changed first, with bet stop and market counts', async () => {
    const r = await get('/trading/sport-events');
    expect(r.statusCode).toBe(200);
    const items = r.json().items;
    expect(items.map((e: { id: string }) => e.id)).toEqual([first, second]);
    expect(items[0]).toMatchObject({
      bet_stop: true,
      markets: 2,
      sport_id: 'football',
      tournament: 'Premier League',
    });
    expect(items[1]).toMatchObject({ bet_stop: false, markets: 3, active_markets: 3 });
    expect(items[1].name).toMatch(/ vs /);
    expect((await get('/trading/sport-events?limit=1')).json().items).toHaveLength(1);
  });

  it('refuses a bad limit or status, and callers without the operator token', async () => {
    const bad = await get('/trading/sport-events?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('querystring.limit');
    expect((await get('/trading/sport-events?status=x')).statusCode).toBe(400);
    expect((await get('/trading/sport-events', 'nope')).statusCode).toBe(401);
  });
});
