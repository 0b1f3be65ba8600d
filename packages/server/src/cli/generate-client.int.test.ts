import { readFileSync } from 'node:fs';
import { createPartnerClient, type PartnerClient } from '@bookie/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app/test-app.js';
import { sampleEvent } from '../modules/trading/fixtures.js';
import { createTestDatabase } from '../testing/database.js';
import { createPartner, TEST_ADMIN_TOKEN } from '../testing/partner.js';
import { CLIENT_TYPES_FILE, partnerClientTypes, partnerDocument } from './generate-client.js';

let t: TestApp;
let url: string;
let client: PartnerClient;
let doc: Record<string, unknown>;
beforeAll(async () => {
  t = await createTestApp(await createTestDatabase());
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const p = await createPartner({ database: t.deps.database });
  client = createPartnerClient({ baseUrl: url, clientId: p.clientId, clientSecret: p.clientSecret });
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('the generated partner client', () => {
  it('is up to date with the routes (npm run generate:client writes the same file)', async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(await partnerClientTypes(doc));
  }, 60_000);

  it('covers every partner operation: all but the admin, trading, frame and ops routes', () => {
    const partner = partnerDocument(doc).paths as Record<string, Record<string, { operationId: string }>>;
    const ids = Object.values(partner).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.sort()).toEqual(
      [
        'announceOptionalCallbacks',
        'builderSelections',
        'calculateBuilder',
        'calculateCashOut',
        'cancelBet',
        'cancelBetBoost',
        'cancelCashOut',
        'cancelFreebet',
        'cancelInsurance',
        'createAccessToken',
        'createBetBoost',
        'createFreebet',
        'createFreebetsBulk',
        'createInsurance',
        'createSessionToken',
        'expireSessionToken',
        'getBet',
        'getBetReport',
        'getDailyReport',
        'getDictionary',
        'getBetBoost',
        'getFeedLog',
        'getFeedSnapshot',
        'getFreebet',
        'getInsurance',
        'getOwnWhiteLabel',
        'getPlayerRisk',
        'getRestrictions',
        'listBets',
        'listBetBoosts',
        'listFreebets',
        'listInsurances',
        'placeCashOut',
        'putPlayerRisk',
        'refetchSportEvent',
        'simplifiedCalculateCashOut',
        'updateFreebet',
        'updateInsurance',
        'voidBet',
        // partner-reported bets: the risk management mode and the advisory mode
        'reportBet',
        'updateReportedBet',
        'withdrawReportedBet',
        'adviseBet',
        'updateAdvisoryBet',
        'getAdvisoryBetVersions',
      ].sort(),
    );
  });

  it('calls the partner operations of a real server with a cached token', async () => {
    const conditions = [
      { type: 'bet_details' as const, data: { bet_details: [{ type: 'single' as const }] } },
    ];
    const wl = await client.GET('/white-label');
    expect(wl.data?.currencies).toEqual(['EUR']);

    const session = await client.POST('/token/create', {
      body: { player_id: 'player-42', currency: 'EUR', locale: 'en' },
    });
    expect(session.data?.token).toEqual(expect.any(String));
    const expired = await client.POST('/token/expire', { body: { token: session.data!.token } });
    expect(expired.response.status).toBe(204);

    const created = await client.POST('/freebet/create', {
      body: {
        player_id: 'player-42',
        currency_code: 'EUR',
        amount: '5',
        conditions,
        idempotence_id: 'k-1',
      },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const id = created.data!.id;
    expect((await client.GET('/freebet/{id}', { params: { path: { id } } })).data).toMatchObject({
      id,
      amount: '5.000000',
      status: 'available',
    });
    const updated = await client.POST('/freebet/update', { body: { id, amount: '7.5' } });
    expect(updated.data?.amount).toBe('7.500000');
    const list = await client.GET('/freebets', { params: { query: { player_id: 'player-42' } } });
    expect(list.data?.items.map((f) => f.id)).toEqual([id]);
    expect((await client.POST('/freebet/cancel', { body: { id } })).data?.status).toBe('cancelled');

    const boost = await client.POST('/bet-boosts', { body: { multiplier: '1.1', quantity: 3, conditions } });
    expect(boost.response.status, JSON.stringify(boost.error)).toBe(201);
    const got = await client.GET('/bet-boosts/{id}', { params: { path: { id: boost.data!.id } } });
    expect(got.data?.remaining_quantity).toBe(3);

    const insurance = await client.POST('/insurance/create', {
      body: { player_id: 'player-42', currency_code: 'EUR', type: 'amount', amount: '2', conditions },
    });
    expect(insurance.response.status, JSON.stringify(insurance.error)).toBe(201);
    const insurances = await client.GET('/insurances', { params: { query: { player_id: 'player-42' } } });
    expect(insurances.data?.items).toHaveLength(1);

    // a refused input answers the Bookie error body, naming the field
    const bad = await client.POST('/freebet/create', {
      body: { player_id: 'p', currency_code: 'EUR', amount: '1.1234567', conditions },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ error: { code: 'validation_error' } });
  });

  it('asks for a sport event again through the feed', async () => {
    const event = sampleEvent();
    const created = await t.app.inject({
      method: 'POST',
      url: '/trading/sport-events',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: event,
    });
    expect(created.statusCode).toBe(201);
    const r = await client.POST('/refetch/sport-event/{id}', { params: { path: { id: event.id! } } });
    expect(r.response.status).toBe(202);
    expect(BigInt(r.data!.version)).toBeGreaterThan(BigInt(created.json().version));
  });
});
