import { generateSigningSecret, signCallback } from '@bookie/sdk';
import { prepareCallback } from '@bookie/sdk/callbacks/fixtures';
import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MIGRATIONS_DIR } from '../db/database.js';
import type { WalletDB } from '../db/schema.js';
import { buildWalletApp } from './app.js';
import { Faults } from './faults.js';

const secret = generateSigningSecret();
let database: TestDatabase<WalletDB>;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase<WalletDB>({ migrationsDir: WALLET_MIGRATIONS_DIR });
  app = await buildWalletApp({
    db: database.db,
    secrets: [secret],
    defaultCurrency: 'EUR',
    faults: new Faults(),
  });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the reference wallet for the betting frame', () => {
  it('counts heartbeats per player (Foreign-Params.player)', async () => {
    const hb = prepareCallback('heartbeat', null, { secret, foreignParams: { player: 'p9' } });
    for (let i = 0; i < 2; i++) {
      const r = await app.inject({ method: 'POST', url: hb.path, headers: hb.headers, payload: hb.body });
      expect(r.statusCode).toBe(204);
    }
    const seen = (await app.inject({ method: 'GET', url: '/players/p9/heartbeats' })).json();
    expect(seen).toEqual({ count: 2, last_at: expect.any(String) });
    expect((await app.inject({ method: 'GET', url: '/players/nobody/heartbeats' })).json()).toEqual({
      count: 0,
      last_at: null,
    });
  });

  it('answers signed banner requests with a banner of the locale, and refuses unsigned ones', async () => {
    const body = JSON.stringify({ locale: 'de', placement: 'top', player_id: 'p9' });
    const signed = await app.inject({
      method: 'POST',
      url: '/banners',
      headers: {
        'content-type': 'application/json',
        host: 'wallet.test',
        ...signCallback({ secret, id: 'b-1', timestamp: new Date(), body }),
      },
      payload: body,
    });
    expect(signed.statusCode).toBe(200);
    const banner = signed.json().banners[0];
    expect(banner).toMatchObject({ id: 'welcome-de', image_url: 'http://wallet.test/banners/de.svg' });
    const image = await app.inject({ method: 'GET', url: '/banners/de.svg' });
    expect(image.headers['content-type']).toContain('image/svg+xml');
    expect(image.body).toContain('Premier League');
    const unsigned = await app.inject({
      method: 'POST',
      url: '/banners',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(401);
  });
});
