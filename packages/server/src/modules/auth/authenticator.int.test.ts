import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, createSession, partnerToken, partnerWithToken } from '../../testing/partner.js';
import { addCredential } from '../tenants/add-credential.js';
import { revokeCredential } from '../tenants/revoke-credential.js';
import { updateWhiteLabel } from '../tenants/update-white-label.js';

/** Adds test routes behind requirePartner / requirePlayer (before the first inject). */
function addProbeRoutes(t: TestApp): void {
  t.app.get('/probe/partner', { preHandler: t.app.requirePartner }, async (req) => req.partner);
  t.app.get('/probe/player', { preHandler: t.app.requirePlayer }, async (req) => req.player);
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe(`bearer check and allowlist (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await createTestApp(db, { keepDatabase: true });
    proxied = await createTestApp(db, {
      keepDatabase: true,
      env: { TRUSTED_PROXIES: '10.0.0.1, fd00::/8' },
    });
    addProbeRoutes(t);
    addProbeRoutes(proxied);
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  const probe = (
    app: TestApp,
    headers: Record<string, string>,
    remoteAddress = '127.0.0.1',
    url = '/probe/partner',
  ) => app.app.inject({ method: 'GET', url, headers, remoteAddress });

  it('resolves a valid token from an allowed address to its white label and credential', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const r = await probe(t, p.headers);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      whiteLabelId: p.whiteLabelId,
      clientId: p.clientId,
      credentialId: expect.any(String),
    });
  });

  it('answers 401 with a bare Bearer challenge when no token is sent (RFC 6750 §3.1)', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }] as Record<string, string>[]) {
      const r = await probe(t, headers);
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="bookie"');
      expect(r.json().error.code).toBe('unauthorized');
    }
  });

  it('answers 400 invalid_request for a malformed Authorization header', async () => {
    for (const authorization of ['Bearer', 'Bearer a b', 'Bearer ä']) {
      const r = await probe(t, { authorization });
      expect(r.statusCode, authorization).toBe(400);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="bookie", error="invalid_request"');
      expect(r.json().error.details.field).toBe('headers.authorization');
    }
  });

  it('answers 401 invalid_token for an unknown token', async () => {
    const r = await probe(t, { authorization: 'Bearer bkat_doesnotexist' });
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(
      /^Bearer realm="bookie", error="invalid_token", error_description=/,
    );
    expect(r.json()).toEqual({
      error: { code: 'unauthorized', message: 'unknown access token', details: { error: 'invalid_token' } },
    });
  });

  it('refuses a token minted before its credential was revoked, on the very next request', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const other = await addCredential(t.deps, { whiteLabelId: p.whiteLabelId });
    const otherToken = await partnerToken(t.app, other.client_id, other.client_secret);
    expect((await probe(t, p.headers)).statusCode).toBe(200);
    await revokeCredential(t.deps, { whiteLabelId: p.whiteLabelId, clientId: p.clientId });
    const r = await probe(t, p.headers);
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(r.json().error.message).toMatch(/revoked/);
    // the white label's other credential is unaffected
    expect((await probe(t, { authorization: `Bearer ${otherToken}` })).statusCode).toBe(200);
  });

  it('checks the token first, then the allowlist: a valid token off the list gets 403', async () => {
    const p = await partnerWithToken({ database: db }, t.app, { allowlist: ['192.0.2.0/24'] });
    expect((await probe(t, p.headers, '192.0.2.77')).statusCode).toBe(200);
    const off = await probe(t, p.headers, '198.51.100.1');
    expect(off.statusCode).toBe(403);
    expect(off.headers['www-authenticate']).toBeUndefined();
    expect(off.json().error).toEqual({
      code: 'forbidden',
      message: expect.stringContaining('198.51.100.1'),
      details: { address: '198.51.100.1' },
    });
    // an invalid token from an off-list address is a 401, not a 403
    expect((await probe(t, { authorization: 'Bearer bkat_nope' }, '198.51.100.1')).statusCode).toBe(401);
  });

  it('matches IPv6 allowlist entries (address and CIDR)', async () => {
    const p = await partnerWithToken({ database: db }, t.app, { allowlist: ['2001:db8::/32', '::1'] });
    expect((await probe(t, p.headers, '2001:db8:1:2::3')).statusCode).toBe(200);
    expect((await probe(t, p.headers, '::1')).statusCode).toBe(200);
    expect((await probe(t, p.headers, '2001:db9::1')).statusCode).toBe(403);
    expect((await probe(t, p.headers, '127.0.0.1')).statusCode).toBe(403);
  });

  it('allows no address with an empty allowlist', async () => {
    const p = await createPartner({ database: db }, { allowlist: [] });
    const token = await partnerToken(t.app, p.clientId, p.clientSecret);
    expect((await probe(t, { authorization: `Bearer ${token}` })).statusCode).toBe(403);
  });

  it('applies an allowlist change on the next request', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    expect((await probe(t, p.headers)).statusCode).toBe(200);
    await updateWhiteLabel(t.deps, { id: p.whiteLabelId, changes: { allowlist: ['192.0.2.1'] } });
    expect((await probe(t, p.headers)).statusCode).toBe(403);
    expect((await probe(t, p.headers, '192.0.2.1')).statusCode).toBe(200);
  });

  it('ignores a spoofed X-Forwarded-For from an untrusted peer', async () => {
    const p = await partnerWithToken({ database: db }, t.app, { allowlist: ['192.0.2.1'] });
    // an off-list peer claiming to forward for an allowed address is judged by its own address
    const spoofed = await probe(t, { ...p.headers, 'x-forwarded-for': '192.0.2.1' }, '198.51.100.9');
    expect(spoofed.statusCode).toBe(403);
    expect(spoofed.json().error.details.address).toBe('198.51.100.9');
    // and an allowed peer cannot be pushed off the list by the header either
    expect((await probe(t, { ...p.headers, 'x-forwarded-for': '203.0.113.5' }, '192.0.2.1')).statusCode).toBe(
      200,
    );
    // the same holds on an app with trusted proxies, for a peer that is not one of them
    const notProxy = await probe(proxied, { ...p.headers, 'x-forwarded-for': '192.0.2.1' }, '10.0.0.2');
    expect(notProxy.statusCode).toBe(403);
  });

  it('honours X-Forwarded-For from a trusted proxy: the right-most untrusted address', async () => {
    const p = await partnerWithToken({ database: db }, proxied.app, { allowlist: ['192.0.2.1'] });
    const via = (xff: string, peer = '10.0.0.1') =>
      probe(proxied, { ...p.headers, 'x-forwarded-for': xff }, peer);
    expect((await via('192.0.2.1')).statusCode).toBe(200);
    // a client that prepends an allowed address to its own: the proxy appended the real one, which wins
    const spoof = await via('192.0.2.1, 198.51.100.7');
    expect(spoof.statusCode).toBe(403);
    expect(spoof.json().error.details.address).toBe('198.51.100.7');
    // a chain of trusted proxies (IPv6 CIDR) is skipped
    expect((await via('192.0.2.1, fd00::5', 'fd00::1')).statusCode).toBe(200);
    // the trusted proxy itself is not an allowed client
    expect((await probe(proxied, p.headers, '10.0.0.1')).statusCode).toBe(403);
  });

  it('refuses player session tokens on partner routes and partner tokens on player routes', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const session = await createSession(t.app, p.token, { player_id: 'p42', params: { sid: 'x' } });
    const onPartner = await probe(t, { authorization: `Bearer ${session}` });
    expect(onPartner.statusCode).toBe(401);
    expect(onPartner.json().error.message).toMatch(/session token is not accepted/);
    const onPlayer = await probe(t, p.headers, '127.0.0.1', '/probe/player');
    expect(onPlayer.statusCode).toBe(401);
    expect(onPlayer.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(onPlayer.json().error.message).toMatch(/partner access token is not accepted/);
    const ok = await probe(t, { authorization: `Bearer ${session}` }, '198.51.100.1', '/probe/player');
    expect(ok.statusCode).toBe(200); // players are not bound to the partner's allowlist
    expect(ok.json()).toMatchObject({ whiteLabelId: p.whiteLabelId, playerId: 'p42', params: { sid: 'x' } });
  });
});

describe('partner rate limit and body size', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(db, {
      keepDatabase: true,
      env: {
        PARTNER_RATE_LIMIT: '3',
        PLAYER_RATE_LIMIT: '2',
        RATE_LIMIT_WINDOW_MS: '60000',
        BODY_LIMIT_BYTES: '2048',
      },
    });
    addProbeRoutes(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with Retry-After past the limit, counted per credential', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const second = await addCredential(t.deps, { whiteLabelId: p.whiteLabelId });
    const secondToken = await partnerToken(t.app, second.client_id, second.client_secret);
    const get = (authorization: string) =>
      t.app.inject({ method: 'GET', url: '/probe/partner', headers: { authorization } });
    for (let i = 0; i < 3; i++) {
      const ok = await get(`Bearer ${p.token}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await get(`Bearer ${p.token}`);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json().error).toMatchObject({
      code: 'rate_limited',
      details: { retry_after: retryAfter },
    });
    // a fresh token of the same credential shares the budget; another credential has its own
    const again = await partnerToken(t.app, p.clientId, p.clientSecret);
    expect((await get(`Bearer ${again}`)).statusCode).toBe(429);
    expect((await get(`Bearer ${secondToken}`)).statusCode).toBe(200);
  });

  it('limits player routes per player (PLAYER_RATE_LIMIT): another session of the player shares it', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const [a, b, other] = [
      await createSession(t.app, p.token, { player_id: 'rl-1' }),
      await createSession(t.app, p.token, { player_id: 'rl-1' }),
      await createSession(t.app, p.token, { player_id: 'rl-2' }),
    ];
    const get = (session: string) =>
      t.app.inject({ method: 'GET', url: '/probe/player', headers: { authorization: `Bearer ${session}` } });
    expect((await get(a)).statusCode).toBe(200);
    expect((await get(b)).statusCode).toBe(200);
    const limited = await get(a);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatchObject({ code: 'rate_limited' });
    expect(limited.json().error.message).toMatch(/for this player/);
    expect((await get(b)).statusCode).toBe(429);
    expect((await get(other)).statusCode).toBe(200);
  });

  it('answers 413 for a body over BODY_LIMIT_BYTES', async () => {
    const p = await partnerWithToken({ database: db }, t.app);
    const r = await t.app.inject({
      method: 'POST',
      url: '/token/create',
      headers: { ...p.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        locale: 'en',
        currency: 'EUR',
        player_id: 'p',
        params: { pad: 'x'.repeat(4000) },
      }),
    });
    expect(r.statusCode).toBe(413);
    expect(r.json().error.code).toBe('validation_error');
  });
});
