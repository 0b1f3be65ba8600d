import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase } from '../../testing/database.js';
import { injectJson } from '../../testing/inject.js';
import { partnerWithToken } from '../../testing/partner.js';
import { findBetBoost, reserveBoost } from './bonuses.repo.js';

const SINGLE = [{ type: 'bet_details', data: { bet_details: [{ type: 'single' }] } }];

describe(`cancelling insurances and bet boosts (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let headers: { authorization: string };
  let otherHeaders: { authorization: string };
  let wl: string;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown, h = headers) {
    const res = await injectJson(t.app, method, url, body, h);
    return { status: res.statusCode, json: res.body ? res.json() : undefined };
  }

  beforeAll(async () => {
    t = await createTestApp(await createTestDatabase());
    const p = await partnerWithToken({ database: t.deps.database }, t.app);
    headers = p.headers;
    wl = p.whiteLabelId;
    otherHeaders = (await partnerWithToken({ database: t.deps.database }, t.app)).headers;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('cancels an available insurance once; it can no longer change; another white label gets 404', async () => {
    const created = await call('POST', '/insurance/create', {
      player_id: 'p1',
      currency_code: 'EUR',
      type: 'amount',
      amount: '5',
      conditions: SINGLE,
    });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect((await call('POST', '/insurance/cancel', { id }, otherHeaders)).status).toBe(404);
    expect((await call('GET', `/insurance/${id}`)).json.status).toBe('available');

    const cancelled = await call('POST', '/insurance/cancel', { id });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ id, status: 'cancelled', bet_id: null });
    const again = await call('POST', '/insurance/cancel', { id });
    expect(again.status).toBe(200);
    expect(again.json.updated_at).toBe(cancelled.json.updated_at);
    expect((await call('GET', `/insurance/${id}`)).json.status).toBe('cancelled');
    expect((await call('POST', '/insurance/update', { id, amount: '6' })).status).toBe(409);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject', '=', `insurance:${id}`)
      .execute();
    expect(audit.map((a) => [a.action, a.actor.startsWith('partner:')])).toEqual([
      ['insurance.cancel', true],
    ]);
    expect(
      (await call('GET', '/insurances?player_id=p1&status=cancelled')).json.items.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([id]);
  });

  it('refuses a bad cancel naming the field, and an unknown insurance with 404', async () => {
    const none = await call('POST', '/insurance/cancel', {});
    expect(none.status).toBe(400);
    expect(none.json.error.details.field).toMatch(/^body/);
    expect((await call('POST', '/insurance/cancel', { id: randomUUID() })).status).toBe(404);
    expect((await call('POST', '/insurance/cancel', { id: 'not-an-id' })).status).toBe(404);
  });

  it('cancels a bet boost: no bet takes it any more; another white label gets 404', async () => {
    const created = await call('POST', '/bet-boosts', { multiplier: '1.2', quantity: 5, name: 'Friday' });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect((await call('POST', `/bet-boosts/${id}/cancel`, undefined, otherHeaders)).status).toBe(404);
    expect((await call('POST', `/bet-boosts/${randomUUID()}/cancel`)).status).toBe(404);

    const cancelled = await call('POST', `/bet-boosts/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ id, status: 'cancelled', remaining_quantity: 5 });
    expect((await call('POST', `/bet-boosts/${id}/cancel`)).json.updated_at).toBe(cancelled.json.updated_at);
    expect((await call('GET', `/bet-boosts/${id}`)).json.status).toBe('cancelled');
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', `bet_boost:${id}`)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['bet_boost.cancel']);

    // the reservation a bet makes at its creation finds nothing to take
    const db = t.deps.database.db;
    const taken = await db
      .transaction()
      .execute((tx) =>
        reserveBoost(tx, { id, whiteLabelId: wl, playerId: 'p1', betId: randomUUID(), now: new Date() }),
      );
    expect(taken).toBeUndefined();
    expect((await findBetBoost(db, wl, id))?.remaining_quantity).toBe(5);

    // an active boost is still taken
    const other = await call('POST', '/bet-boosts', { multiplier: '1.2', quantity: 5 });
    const live = await db.transaction().execute((tx) =>
      reserveBoost(tx, {
        id: other.json.id,
        whiteLabelId: wl,
        playerId: 'p1',
        betId: randomUUID(),
        now: new Date(),
      }),
    );
    expect(live).toBe('1.200000');
  });
});
