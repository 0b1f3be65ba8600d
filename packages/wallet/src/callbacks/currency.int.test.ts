import { randomUUID } from 'node:crypto';
import { placeBody, settleBody } from '@bookie/sdk/callbacks/fixtures';
import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MIGRATIONS_DIR } from '../db/database.js';
import type { WalletDB } from '../db/schema.js';
import { buildWalletApp } from '../http/app.js';
import { Faults } from '../http/faults.js';
import { sendCallback } from '../testing/send-callback.js';
import { WalletApi } from '../testing/wallet-api.js';

let database: TestDatabase<WalletDB>;
let app: FastifyInstance;
let url: string;
let api: WalletApi;

beforeAll(async () => {
  database = await createTestDatabase<WalletDB>({ migrationsDir: WALLET_MIGRATIONS_DIR });
  // as `bookie-wallet start` runs by default: no currency declared
  app = await buildWalletApp({ db: database.db, secrets: [], faults: new Faults() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  api = new WalletApi(url);
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the wallet never guesses a currency', () => {
  it('refuses a /bet/place whose Foreign-Params name no currency with a final code, holding nothing', async () => {
    const player = `p-${randomUUID()}`;
    await api.deposit(player, '50', 'EUR');
    await api.deposit(player, '50', 'USD');
    const body = placeBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, bet_stake: '10' });

    const refused = await sendCallback(url, 'place', body, { foreignParams: { player } });
    expect(refused.status).toBe(400);
    const error = JSON.parse(refused.body).error;
    expect(error.code).toBe('auth_session_unknown');
    expect(error.data.reason).toBe('currency_unknown');
    // final: the replay gets the same bytes, and no currency moved
    const replay = await sendCallback(url, 'place', body, { foreignParams: { player } });
    expect([replay.status, replay.body]).toEqual([refused.status, refused.body]);
    expect(await api.balance(player, 'EUR')).toEqual({ available: '50.000000', held: '0.000000' });
    expect(await api.balance(player, 'USD')).toEqual({ available: '50.000000', held: '0.000000' });
  });

  it("books a /bet/place in the session's currency from Foreign-Params", async () => {
    const player = `p-${randomUUID()}`;
    await api.deposit(player, '50', 'EUR');
    await api.deposit(player, '50', 'USD');
    const body = placeBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, bet_stake: '10' });

    const placed = await sendCallback(url, 'place', body, { foreignParams: { currency: 'USD' } });
    expect(placed.status).toBeLessThan(300);
    expect(await api.balance(player, 'USD')).toEqual({ available: '40.000000', held: '10.000000' });
    expect(await api.balance(player, 'EUR')).toEqual({ available: '50.000000', held: '0.000000' });
  });

  it('refuses a settle of a reported bet it cannot book (no currency) transiently, then books it once one is named', async () => {
    const player = `p-${randomUUID()}`;
    const body = settleBody({ bet_id: `b-${randomUUID()}`, bet_player_id: player, settle_amount: '12' });
    const refused = await sendCallback(url, 'settle', body);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toEqual({
      code: 'bet_unknown',
      data: { bet_id: body.bet_id, reason: 'currency_unknown' },
    });
    expect((await api.balances(player)).balances).toEqual([]);
    // transient, not stored: the retry is decided again (here the session now names the currency)
    const booked = await sendCallback(url, 'settle', body, { foreignParams: { currency: 'USD' } });
    expect(booked.status).toBe(204);
    expect(await api.balance(player, 'USD')).toEqual({ available: '12.000000', held: '0.000000' });
    expect((await api.checkLedger(player)).ok).toBe(true);
  });
});
