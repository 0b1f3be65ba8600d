import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { manualClock, partnerWithToken } from '../../testing/partner.js';
import { hashSecret } from '../tenants/secrets.js';
import { authenticatePlayer, batchedSessionLookup } from './authenticate-player.js';
import { expireSession } from './expire-session.js';

describe(`player session tokens, D26 (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let db: TestDatabase;
  let t: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    db = await createTestDatabase();
    t = await createTestApp(db, { clock, env: { SESSION_TOKEN_TTL_S: '3600' } });
    t.app.get('/probe/player', { preHandler: t.app.requirePlayer }, async (req) => req.player);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (authorization: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/token/create',
      headers: { authorization, 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const asPlayer = (token: string) =>
    t.app.inject({ method: 'GET', url: '/probe/player', headers: { authorization: `Bearer ${token}` } });

  it('creates an opaque token carrying white label, player, currency, locale, params and context', async () => {
    const p = await partnerWithToken({ database: db }, t.app, { currencies: ['EUR', 'USD'] });
    const r = await create(`Bearer ${p.token}`, {
      locale: 'pt-BR',
      currency: 'USD',
      player_id: 'player-1',
      params: { session: 's-9', nested: { a: [1, 2] } },
      context: { device: 'mobile' },
    });
    expect(r.statusCode).toBe(200);
    const { token } = r.json();
    expect(Object.keys(r.json())).toEqual(['token']);
    expect(token).toMatch(/^bkst_[A-Za-z0-9_-]{43}$/);
    // stored hashed only
    const rows = await db.db
      .selectFrom('session_token')
      .selectAll()
      .where('white_label_id', '=', p.whiteLabelId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashSecret(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const me = await asPlayer(token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      token,
      sessionId: rows[0]?.id,
      whiteLabelId: p.whiteLabelId,
      playerId: 'player-1',
      currency: 'USD',
      locale: 'pt-BR',
      params: { session: 's-9', nested: { a: [1, 2] } },
      context: { device: 'mobile' },
    });
  });

  it('makes a read-only viewer from an empty player_id, with {} params by default', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const r = await create(`Bearer ${p.token}`, { locale: 'en', currency: 'EUR', player_id: '' });
    expect(r.statusCode).toBe(200);
    const me = await asPlayer(r.json().token);
    expect(me.json()).toMatchObject({ playerId: '', params: {}, context: {} });
  });

  it.each([
    [{ locale: 'en', currency: 'GBP', player_id: 'p' }, 'currency'],
    [{ locale: 'en', currency: 'eur', player_id: 'p' }, 'body.currency'],
    [{ locale: 'en', currency: 'EUR', player_id: 7 }, 'body.player_id'],
    [{ locale: 'en', currency: 'EUR' }, 'body.player_id'],
    [{ locale: 'en', currency: 'EUR', player_id: 'p', extra: true }, 'body.extra'],
    [{ locale: 'en', currency: 'EUR', player_id: 'p', params: [] }, 'body.params'],
    [{ locale: 'english!', currency: 'EUR', player_id: 'p' }, 'body.locale'],
    [{ locale: 'en', currency: 'EUR', player_id: 'p', params: { big: 'x'.repeat(5000) } }, 'params'],
    ['{"locale":"en","currency":"EUR","player_id":"a","player_id":"b"}', 'body.player_id'],
    ['', 'body'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const p = await partnerWithToken({ database: db }, t.app);
    const r = await create(`Bearer ${p.token}`, payload);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 'validation_error', details: { field } });
    expect(r.json().error.message).toContain(field);
  });

  it('needs a partner token: none, a session token or a bad token are 401', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const body = { locale: 'en', currency: 'EUR', player_id: 'p' };
    const session = (await create(`Bearer ${p.token}`, body)).json().token;
    expect((await create('', body)).statusCode).toBe(401);
    expect((await create(`Bearer ${session}`, body)).statusCode).toBe(401);
    expect((await create('Bearer bkat_x', body)).statusCode).toBe(401);
  });

  it('ends a session at once (POST /token/expire and the expireSession use case); idempotent', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const body = { locale: 'en', currency: 'EUR', player_id: 'p' };
    const a = (await create(`Bearer ${p.token}`, body)).json().token;
    const b = (await create(`Bearer ${p.token}`, body)).json().token;
    const expire = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/token/expire',
        headers: { ...p.headers, 'content-type': 'application/json' },
        payload: { token },
      });
    expect((await expire(a)).statusCode).toBe(204);
    expect((await expire(a)).statusCode).toBe(204);
    const ended = await asPlayer(a);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().error.message).toBe('session ended');
    await expireSession(t.deps, { whiteLabelId: p.whiteLabelId, token: b });
    expect((await asPlayer(b)).statusCode).toBe(401);
    expect((await expire('bkst_unknown')).statusCode).toBe(404);
  });

  it('expires sessions after SESSION_TOKEN_TTL_S', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const token = (
      await create(`Bearer ${p.token}`, { locale: 'en', currency: 'EUR', player_id: 'p' })
    ).json().token;
    clock.advance(3_599_000);
    expect((await asPlayer(token)).statusCode).toBe(200);
    clock.advance(1_000);
    const r = await asPlayer(token);
    expect(r.statusCode).toBe(401);
    expect(r.json().error.message).toBe('session expired');
    await expect(authenticatePlayer(t.deps, { token })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('a batched lookup resolves the sessions of concurrent requests, each to its own row', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const tokens: string[] = [];
    for (const player of ['b1', 'b2', 'b3']) {
      tokens.push(
        (await create(`Bearer ${p.token}`, { locale: 'en', currency: 'EUR', player_id: player })).json()
          .token,
      );
    }
    const lookup = batchedSessionLookup(t.deps);
    const hashes = [...tokens, tokens[0] as string, 'bkst_unknown'].map(hashSecret);
    const rows = await Promise.all(hashes.map((h) => lookup(h)));
    expect(rows.map((r) => r?.player_id)).toEqual(['b1', 'b2', 'b3', 'b1', undefined]);
    const sessions = await Promise.all(
      tokens.map((token) => authenticatePlayer({ ...t.deps, lookup }, { token })),
    );
    expect(sessions.map((s) => s.playerId)).toEqual(['b1', 'b2', 'b3']);
  });
});
