import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, manualClock, type TestPartner } from '../../testing/partner.js';
import { addCredential } from '../tenants/add-credential.js';
import { revokeCredential } from '../tenants/revoke-credential.js';
import { hashSecret } from '../tenants/secrets.js';

const FORM = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe(`POST /oauth/token (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let p: TestPartner;
  const clock = manualClock();

  beforeAll(async () => {
    t = await createTestApp(db, { clock, keepDatabase: true });
    p = await createPartner({ database: db });
  });
  afterAll(async () => {
    await t?.close();
  });

  const token = (headers: Record<string, string>, payload: string) =>
    t.app.inject({ method: 'POST', url: '/oauth/token', headers, payload });

  it('issues a short-lived bearer token for HTTP Basic client auth (form body)', async () => {
    const r = await token(
      { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) },
      'grant_type=client_credentials',
    );
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers.pragma).toBe('no-cache');
    const body = r.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^bkat_/),
      token_type: 'Bearer',
      expires_in: 900,
    });
    // stored hashed, never in clear
    const row = await db.db
      .selectFrom('access_token')
      .selectAll()
      .where('token_hash', '=', hashSecret(body.access_token))
      .executeTakeFirstOrThrow();
    expect(row.white_label_id).toBe(p.whiteLabelId);
    expect(new Date(row.expires_at).getTime() - clock.now()).toBe(900_000);
  });

  it('accepts client credentials in a form body and in a JSON body', async () => {
    const form = await token(
      { 'content-type': FORM },
      `grant_type=client_credentials&client_id=${p.clientId}&client_secret=${encodeURIComponent(p.clientSecret)}`,
    );
    expect(form.statusCode).toBe(200);
    const json = await token(
      { 'content-type': 'application/json' },
      JSON.stringify({
        grant_type: 'client_credentials',
        client_id: p.clientId,
        client_secret: p.clientSecret,
      }),
    );
    expect(json.statusCode).toBe(200);
    expect(json.json().access_token).not.toBe(form.json().access_token);
  });

  it('accepts url-encoded Basic credentials (RFC 6749 §2.3.1)', async () => {
    const enc = Buffer.from(
      `${encodeURIComponent(p.clientId)}:${encodeURIComponent(p.clientSecret)}`,
    ).toString('base64');
    const r = await token(
      { 'content-type': FORM, authorization: `Basic ${enc}` },
      'grant_type=client_credentials',
    );
    expect(r.statusCode).toBe(200);
  });

  it('answers invalid_client 401 with WWW-Authenticate: Basic for a wrong secret over Basic', async () => {
    const r = await token(
      { 'content-type': FORM, authorization: basic(p.clientId, `${p.clientSecret}x`) },
      'grant_type=client_credentials',
    );
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Basic realm="bookie"/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
  });

  it.each([
    ['a wrong secret in the body', (c: TestPartner) => `client_id=${c.clientId}&client_secret=nope`],
    ['an unknown client id', () => 'client_id=bkc_unknown&client_secret=nope'],
    ['no client authentication', () => ''],
    ['a client id without a secret', (c: TestPartner) => `client_id=${c.clientId}`],
  ])('answers invalid_client 401 for %s', async (_name, extra) => {
    const r = await token({ 'content-type': FORM }, `grant_type=client_credentials&${extra(p)}`);
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe('invalid_client');
  });

  it('answers invalid_client for a malformed or non-Basic Authorization header', async () => {
    for (const authorization of [
      'Basic !!!',
      'Bearer abc',
      `Basic ${Buffer.from('nocolon').toString('base64')}`,
    ]) {
      const r = await token({ 'content-type': FORM, authorization }, 'grant_type=client_credentials');
      expect(r.statusCode, authorization).toBe(401);
      expect(r.json().error).toBe('invalid_client');
      expect(r.headers['www-authenticate']).toMatch(/^Basic/);
    }
  });

  it('answers invalid_request for a missing grant_type, a repeated parameter, or two auth methods', async () => {
    const auth = { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) };
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [auth, '', /grant_type/],
      [auth, 'grant_type=client_credentials&grant_type=client_credentials', /repeated/],
      [auth, `grant_type=client_credentials&client_secret=${p.clientSecret}`, /one client authentication/],
      [auth, 'grant_type=client_credentials&client_id=bkc_other', /one client authentication/],
      [
        { 'content-type': 'application/json' },
        '{"grant_type":"client_credentials","grant_type":"x"}',
        /duplicate/,
      ],
      [{ 'content-type': 'application/json' }, '{"grant_type":1}', /must be a string/],
      [{ 'content-type': 'application/json' }, '["grant_type"]', /object body/],
      [{ 'content-type': 'application/json' }, '{"grant_type":', /invalid JSON/],
      [{ 'content-type': 'text/plain' }, 'grant_type=client_credentials', /.+/],
    ];
    for (const [headers, payload, message] of cases) {
      const r = await token(headers, payload);
      expect(r.statusCode, payload).toBe(400);
      expect(r.headers['cache-control']).toBe('no-store');
      const body = r.json();
      expect(body.error, payload).toBe('invalid_request');
      expect(body.error_description).toMatch(message);
    }
  });

  it('answers unsupported_grant_type and invalid_scope', async () => {
    const auth = { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) };
    const g = await token(auth, 'grant_type=password&username=a&password=b');
    expect(g.statusCode).toBe(400);
    expect(g.json().error).toBe('unsupported_grant_type');
    const s = await token(auth, 'grant_type=client_credentials&scope=admin');
    expect(s.statusCode).toBe(400);
    expect(s.json().error).toBe('invalid_scope');
    const empty = await token(auth, 'grant_type=client_credentials&scope=');
    expect(empty.statusCode).toBe(200);
  });

  it('ignores unknown parameters (RFC 6749 §3.2)', async () => {
    const r = await token(
      { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) },
      'grant_type=client_credentials&foo=bar',
    );
    expect(r.statusCode).toBe(200);
  });

  it('answers invalid_client for a revoked credential; the other credentials of the white label still work', async () => {
    const second = await addCredential(t.deps, { whiteLabelId: p.whiteLabelId });
    await revokeCredential(t.deps, { whiteLabelId: p.whiteLabelId, clientId: second.client_id });
    const revoked = await token(
      { 'content-type': FORM, authorization: basic(second.client_id, second.client_secret) },
      'grant_type=client_credentials',
    );
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toBe('invalid_client');
    const first = await token(
      { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) },
      'grant_type=client_credentials',
    );
    expect(first.statusCode).toBe(200);
  });

  it('issues tokens that stop working after expires_in seconds', async () => {
    const r = await token(
      { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) },
      'grant_type=client_credentials',
    );
    const auth = { authorization: `Bearer ${r.json().access_token}` };
    expect((await t.app.inject({ method: 'GET', url: '/white-label', headers: auth })).statusCode).toBe(200);
    clock.advance(899_000);
    expect((await t.app.inject({ method: 'GET', url: '/white-label', headers: auth })).statusCode).toBe(200);
    clock.advance(1_000);
    const expired = await t.app.inject({ method: 'GET', url: '/white-label', headers: auth });
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(expired.json().error.message).toMatch(/expired/);
  });
});

describe('POST /oauth/token rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(db, {
      keepDatabase: true,
      env: { TOKEN_RATE_LIMIT: '2', RATE_LIMIT_WINDOW_MS: '60000' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with Retry-After past the limit per client address', async () => {
    const p = await createPartner({ database: db });
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress,
        headers: { 'content-type': FORM, authorization: basic(p.clientId, p.clientSecret) },
        payload: 'grant_type=client_credentials',
      });
    expect((await send('127.0.0.1')).statusCode).toBe(200);
    expect((await send('127.0.0.1')).statusCode).toBe(200);
    const third = await send('127.0.0.1');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(third.json().error).toBe('temporarily_unavailable');
    // another address has its own budget
    expect((await send('127.0.0.2')).statusCode).toBe(200);
  });
});
