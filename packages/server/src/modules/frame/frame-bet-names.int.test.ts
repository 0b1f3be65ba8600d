import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { startBackground } from '../../app/wiring.js';
import { createTestDatabase } from '../../testing/database.js';
import { createPartner, createSession, partnerToken } from '../../testing/partner.js';
import { scriptedPartner } from '../../testing/scripted-partner.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';

/**
 * The frame API's bet slip look-ahead (GET /frame-api/restrictions) and the names a bet keeps: each selection is
 * stored with what it was called at placement, and the player's bet view returns it.
 */
describe(`the frame's restrictions and the names of a bet's selections (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let partner: Awaited<ReturnType<typeof scriptedPartner>>;
  let session: string;
  let eventId: string;

  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${session}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    partner = await scriptedPartner();
    t = await createTestApp(await createTestDatabase());
    await startBackground(t.deps);
    const created = await createSportEvent(t.deps, sampleEvent({ markets: 1 }));
    await t.deps.feed.catalog.waitFor(created.version);
    eventId = created.id;
    const wl = await createPartner(
      { database: t.deps.database },
      { callback_url: partner.url, limits: { min_stake: '1', max_stake: '42', max_payout: null } },
    );
    session = await createSession(t.app, await partnerToken(t.app, wl.clientId, wl.clientSecret), {
      player_id: 'p-names',
      params: {},
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await partner?.close();
  });

  it('answers the largest stake the slip can place, for the session player', async () => {
    const r = await call(
      'GET',
      `/frame-api/restrictions?type_code=0&currency_code=EUR&selection=${eventId}/1/1/1.5`,
    );
    expect(r.statusCode).toBe(200);
    expect(r.json().max_bet).toEqual({ value: '42.000000', currency_code: 'EUR' });
    const bad = await call(
      'GET',
      `/frame-api/restrictions?type_code=0&currency_code=EUR&selection=no-slashes`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('query.selection[0]');
  });

  it('keeps what each selection was called at placement, and shows it in the bet view', async () => {
    const placed = await call('POST', '/frame-api/bets', {
      bet_type: 'single',
      stake: '10',
      currency: 'EUR',
      odds_strategy: 1,
      selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '2', odds: '2.5' }],
    });
    expect(placed.statusCode).toBe(200);
    const id = placed.json().id as string;
    const names = {
      event: 'Arsenal vs Chelsea',
      tournament: 'Premier League',
      sport_id: 'football',
      start_time: '2030-06-01T18:00:00Z',
      market: '1x2',
      outcome: 'Chelsea',
      market_template: '1x2',
      outcome_template: '{$competitor2}',
      specifiers: {},
      competitors: { '1': 'Arsenal', '2': 'Chelsea' },
    };
    expect(placed.json().selections[0].names).toEqual(names);
    const read = await call('GET', `/frame-api/bets/${id}`);
    expect(read.json().selections[0].names).toEqual(names);
    const list = await call('GET', '/frame-api/bets');
    expect(list.json().items.find((b: { id: string }) => b.id === id).selections[0].names).toEqual(names);
  });
});
