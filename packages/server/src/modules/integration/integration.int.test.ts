import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { hashSecret } from '../tenants/secrets.js';
import { sampleEvent } from '../trading/fixtures.js';
import { INTEGRATION_ROUTES } from './integration.routes.js';

let db: TestDatabase;
let production: TestApp;
let integration: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  production = await createTestApp(db, { keepDatabase: true });
  integration = await createTestApp(db, { env: { BOOKIE_ENV: 'integration' }, keepDatabase: true });
});
afterAll(async () => {
  await production?.close();
  await integration?.close();
  await db?.close();
});

const openApiPaths = async (app: FastifyInstance) =>
  Object.keys((await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths as object);

describe(`BOOKIE_ENV (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('production answers 404 on every integration-only route; integration serves each of them', async () => {
    for (const r of INTEGRATION_ROUTES) {
      const url = r.url.replace(':id', 'e1').replace(':market_id', 'm1');
      const prod = await production.app.inject({
        method: r.method,
        url,
        payload: r.method === 'GET' ? undefined : {},
      });
      expect({ route: `${r.method} ${r.url}`, status: prod.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 404,
      });
      const integ = await integration.app.inject({
        method: r.method,
        url,
        payload: r.method === 'GET' ? undefined : {},
      });
      expect({
        route: `${r.method} ${r.url}`,
        served: integ.statusCode !== 404 || /sport event|market/.test(integ.body),
      }).toEqual({
        route: `${r.method} ${r.url}`,
        served: true,
      });
    }
  });

  it('lists the integration operations in /openapi.json only in integration', async () => {
    const prod = await openApiPaths(production.app);
    const integ = await openApiPaths(integration.app);
    expect(
      prod.filter(
        (p) => p.startsWith('/integration') || p.startsWith('/mcp') || p.startsWith('/.well-known'),
      ),
    ).toEqual([]);
    const added = integ.filter((p) => !prod.includes(p)).sort();
    expect(added).toEqual(
      [
        ...new Set(INTEGRATION_ROUTES.filter((r) => r.openapi).map((r) => r.url.replace(/:(\w+)/g, '{$1}'))),
      ].sort(),
    );
  });
});

describe('sandbox helpers', () => {
  let token: string;
  const auth = () => ({ authorization: `Bearer ${token}` });
  const ev = sampleEvent();
  beforeAll(async () => {
    const p = await createPartner({ database: db });
    token = await partnerToken(integration.app, p.clientId, p.clientSecret);
    const created = await integration.app.inject({
      method: 'POST',
      url: '/trading/sport-events',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: ev,
    });
    expect(created.statusCode).toBe(201);
  });
  const event = async () =>
    (
      await integration.app.inject({
        method: 'GET',
        url: `/trading/sport-events/${ev.id}`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      })
    ).json().sport_event;

  it('moves odds of a market', async () => {
    const r = await integration.app.inject({
      method: 'POST',
      url: `/integration/sandbox/sport-events/${ev.id}/markets/1/odds`,
      headers: auth(),
      payload: { odds: { '1': '2.25' } },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: ev.id, market_id: '1', version: expect.stringMatching(/^\d+$/) });
    expect((await event()).markets['1'].odds['1'].value).toBe('2.250000000000');
  });

  it('results a market now: listed odds get their status, the others lose, the market is resulted', async () => {
    const r = await integration.app.inject({
      method: 'POST',
      url: `/integration/sandbox/sport-events/${ev.id}/markets/2/result`,
      headers: auth(),
      payload: { odds: { '2': 1 } },
    });
    expect(r.statusCode).toBe(200);
    const m = (await event()).markets['2'];
    expect(m.status).toBe(3);
    expect([m.odds['1'].status, m.odds['2'].status, m.odds['3'].status]).toEqual([2, 1, 2]);
  });

  it('names the bad field: an unknown odd, an unknown market, a bad status', async () => {
    const unknownOdd = await integration.app.inject({
      method: 'POST',
      url: `/integration/sandbox/sport-events/${ev.id}/markets/1/result`,
      headers: auth(),
      payload: { odds: { '9': 1 } },
    });
    expect(unknownOdd.statusCode).toBe(400);
    expect(unknownOdd.json().error.details.field).toBe('body.odds.9');
    const unknownMarket = await integration.app.inject({
      method: 'POST',
      url: `/integration/sandbox/sport-events/${ev.id}/markets/77/odds`,
      headers: auth(),
      payload: { odds: { '1': '2.00' } },
    });
    expect(unknownMarket.statusCode).toBe(404);
    const badStatus = await integration.app.inject({
      method: 'POST',
      url: `/integration/sandbox/sport-events/${ev.id}/markets/1/result`,
      headers: auth(),
      payload: { odds: { '1': 7 } },
    });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().error.details.field).toMatch(/^body\.odds/);
    const noToken = await integration.app.inject({
      method: 'POST',
      url: `/integration/sandbox/sport-events/${ev.id}/markets/1/odds`,
      payload: { odds: { '1': '2.00' } },
    });
    expect(noToken.statusCode).toBe(401);
  });

  it("expires a player session of the caller's white label now; another white label's token is not found", async () => {
    const session = await createSession(integration.app, token, { player_id: 'p-exp' });
    const r = await integration.app.inject({
      method: 'POST',
      url: '/integration/sandbox/sessions/expire',
      headers: auth(),
      payload: { token: session },
    });
    expect(r.statusCode).toBe(200);
    const row = await db.db
      .selectFrom('session_token')
      .select('expires_at')
      .where('token_hash', '=', hashSecret(session))
      .executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).toISOString()).toBe(r.json().expired_at);
    const frame = await integration.app.inject({
      method: 'GET',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(frame.statusCode).toBe(401);

    const other = await createPartner({ database: db });
    const otherToken = await partnerToken(integration.app, other.clientId, other.clientSecret);
    const foreign = await integration.app.inject({
      method: 'POST',
      url: '/integration/sandbox/sessions/expire',
      headers: { authorization: `Bearer ${otherToken}` },
      payload: { token: await createSession(integration.app, token, { player_id: 'p-2' }) },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.details.field).toBe('body.token');
  });

  it('answers the partner check API with 409 while the white label has no callback URL', async () => {
    const r = await integration.app.inject({
      method: 'POST',
      url: '/integration/partner-check',
      headers: auth(),
      payload: { player_id: 'p1' },
    });
    expect(r.statusCode).toBe(409);
    const bad = await integration.app.inject({
      method: 'POST',
      url: '/integration/partner-check',
      headers: auth(),
      payload: { player_id: 'p1', only: ['no_such_scenario'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('body.only');
  });
});
