import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { hashSecret } from './secrets.js';
import { signingFor } from './signing-for.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe(`admin API of white labels (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(db, { keepDatabase: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = ADMIN) =>
    t.app.inject({
      method,
      url,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
  const create = (body: Record<string, unknown> = {}) =>
    call('POST', '/admin/white-labels', { name: 'Acme', currencies: ['EUR'], ...body });

  it('creates a white label with its first credential; the secret is shown once and stored hashed', async () => {
    const r = await create({
      mode: 'mts',
      callback_url: 'https://partner.example/callbacks/',
      limits: { min_stake: '0.5', max_stake: '1000', max_payout: '25000.123456' },
      bet_interval: 3,
      bet_delay: 5,
      allowlist: ['127.0.0.1', '2001:DB8::/32'],
      allowed_origins: ['https://Casino.example/', 'http://127.0.0.1:5173'],
    });
    expect(r.statusCode).toBe(201);
    const c = r.json();
    expect(c).toMatchObject({
      id: expect.any(String),
      client_id: expect.stringMatching(/^bkc_[0-9a-f]{24}$/),
      client_secret: expect.stringMatching(/^bksec_[A-Za-z0-9_-]{43}$/),
      white_label: {
        name: 'Acme',
        mode: 'mts',
        currencies: ['EUR'],
        callback_url: 'https://partner.example/callbacks',
        limits: { min_stake: '0.500000', max_stake: '1000.000000', max_payout: '25000.123456' },
        bet_interval: 3,
        bet_delay: 5,
        allowlist: ['127.0.0.1', '2001:db8::/32'],
        allowed_origins: ['https://casino.example', 'http://127.0.0.1:5173'],
        signing: {
          enabled: true,
          secret: expect.stringMatching(/^whsec_/),
          previous_secret_valid_until: null,
        },
      },
    });
    const cred = await db.db
      .selectFrom('oauth_credential')
      .selectAll()
      .where('client_id', '=', c.client_id)
      .executeTakeFirstOrThrow();
    expect(cred.secret_hash).toBe(hashSecret(c.client_secret));
    const show = await call('GET', `/admin/white-labels/${c.id}`);
    expect(show.statusCode).toBe(200);
    expect(JSON.stringify(show.json())).not.toContain(c.client_secret);
    // kept, not only echoed: the stored white label allows the origins given at creation
    expect(show.json().allowed_origins).toEqual(['https://casino.example', 'http://127.0.0.1:5173']);
    expect(show.json().credentials).toEqual([
      { client_id: c.client_id, created_at: expect.any(String), revoked_at: null },
    ]);
  });

  it.each([
    [{ name: 'x', currencies: ['EUR'], colour: 'red' }, 'body.colour'],
    [{ name: 'x', currencies: 'EUR' }, 'body.currencies'],
    [{ name: 'x', currencies: [] }, 'body.currencies'],
    [{ name: 'x', currencies: ['EUR'], mode: 'full' }, 'body.mode'],
    [{ name: 'x', currencies: ['EUR'], bet_delay: '5' }, 'body.bet_delay'],
    [{ name: 'x', currencies: ['EUR'], bet_delay: -1 }, 'body.bet_delay'],
    [{ name: 'x', currencies: ['EUR'], limits: { max_stake: 10 } }, 'body.limits.max_stake'],
    [{ name: 'x', currencies: ['EUR'], limits: { max_stake: '1e3' } }, 'body.limits.max_stake'],
    [{ name: 'x', currencies: ['EUR'], limits: { max_stake: '1.1234567' } }, 'body.limits.max_stake'],
    [{ name: 'x', currencies: ['EUR'], limits: { cap: '1' } }, 'body.limits.cap'],
    [{ name: 'x', currencies: ['EUR'], limits: { min_stake: '10', max_stake: '5' } }, 'limits.min_stake'],
    [{ name: 'x', currencies: ['EUR'], limits: { max_payout: '0' } }, 'limits.max_payout'],
    [{ name: 'x', currencies: ['EUR'], callback_url: 'ftp://x' }, 'callback_url'],
    [{ name: 'x', currencies: ['EUR'], callback_url: 'not a url' }, 'callback_url'],
    [{ name: 'x', currencies: ['EUR'], callback_url: 'https://u:p@x.example' }, 'callback_url'],
    [{ name: 'x', currencies: ['EUR'], allowlist: ['10.0.0.1', 'nope'] }, 'allowlist[1]'],
    [{ name: 'x', currencies: ['EUR'], allowed_origins: ['https://x.example/frame'] }, 'allowed_origins[0]'],
    [{ name: ' ', currencies: ['EUR'] }, 'name'],
    [{ currencies: ['EUR'] }, 'body.name'],
    ['{"name":"a","name":"b","currencies":["EUR"]}', 'body.name'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const r = await call('POST', '/admin/white-labels', body);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 'validation_error', details: { field } });
  });

  it('lists white labels without secrets or credentials', async () => {
    await create({ name: 'Listed' });
    const r = await call('GET', '/admin/white-labels');
    expect(r.statusCode).toBe(200);
    const list = r.json().white_labels as Array<{
      name: string;
      signing: { secret?: string };
      credentials?: unknown;
    }>;
    expect(list.map((w) => w.name)).toContain('Listed');
    for (const w of list) {
      expect(w.signing.secret).toBeUndefined();
      expect(w.credentials).toBeUndefined();
    }
  });

  it('updates only the given fields and checks limits against the stored ones', async () => {
    const c = (await create({ limits: { min_stake: '1', max_stake: '100' } })).json();
    const r = await call('PATCH', `/admin/white-labels/${c.id}`, {
      name: 'Renamed',
      currencies: ['EUR', 'USDT'],
      limits: { max_payout: '500' },
      signing_enabled: false,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      name: 'Renamed',
      currencies: ['EUR', 'USDT'],
      limits: { min_stake: '1.000000', max_stake: '100.000000', max_payout: '500.000000' },
      signing: { enabled: false },
      allowlist: [],
    });
    const bad = await call('PATCH', `/admin/white-labels/${c.id}`, { limits: { max_stake: '0.5' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('limits.max_stake');
    const cleared = await call('PATCH', `/admin/white-labels/${c.id}`, {
      limits: { min_stake: null, max_stake: '0.5' },
    });
    expect(cleared.json().limits).toEqual({
      min_stake: null,
      max_stake: '0.500000',
      max_payout: '500.000000',
    });
    const unknown = await call('PATCH', `/admin/white-labels/${c.id}`, { nmae: 'typo' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.field).toBe('body.nmae');
    const audit = await db.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject', '=', `white_label:${c.id}`)
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'white_label.create',
      'white_label.update',
      'white_label.update',
    ]);
  });

  it('adds and revokes credentials; a revocation is idempotent', async () => {
    const c = (await create()).json();
    const added = await call('POST', `/admin/white-labels/${c.id}/credentials`);
    expect(added.statusCode).toBe(201);
    const n = added.json();
    expect(n).toMatchObject({ white_label_id: c.id, client_id: expect.stringMatching(/^bkc_/) });
    expect(await partnerToken(t.app, n.client_id, n.client_secret)).toMatch(/^bkat_/);
    const revoked = await call('POST', `/admin/white-labels/${c.id}/credentials/${n.client_id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).toEqual(expect.any(String));
    const again = await call('POST', `/admin/white-labels/${c.id}/credentials/${n.client_id}/revoke`);
    expect(again.json().revoked_at).toBe(revoked.json().revoked_at);
    await expect(partnerToken(t.app, n.client_id, n.client_secret)).rejects.toThrow(/401/);
    const show = (await call('GET', `/admin/white-labels/${c.id}`)).json();
    expect(show.credentials.map((x: { revoked_at: string | null }) => x.revoked_at !== null)).toEqual([
      false,
      true,
    ]);
  });

  it('rotates the signing secret, keeping the previous one for the grace period', async () => {
    const c = (await create()).json();
    const old = c.white_label.signing.secret;
    const r = await call('POST', `/admin/white-labels/${c.id}/signing-secret/rotate`, { grace_seconds: 600 });
    expect(r.statusCode).toBe(200);
    const { signing_secret, previous_secret_valid_until } = r.json();
    expect(signing_secret).toMatch(/^whsec_/);
    expect(signing_secret).not.toBe(old);
    expect(Date.parse(previous_secret_valid_until) - Date.now()).toBeGreaterThan(590_000);
    const signer = await signingFor(t.deps, c.id);
    expect(signer.headers('msg_1', '{}')['webhook-signature']?.split(' ')).toHaveLength(2);
    const show = (await call('GET', `/admin/white-labels/${c.id}`)).json();
    expect(show.signing).toEqual({ enabled: true, secret: signing_secret, previous_secret_valid_until });
    const now = await call('POST', `/admin/white-labels/${c.id}/signing-secret/rotate`, { grace_seconds: 0 });
    expect(now.json().previous_secret_valid_until).toBeNull();
    const single = await signingFor(t.deps, c.id);
    expect(single.headers('msg_1', '{}')['webhook-signature']?.split(' ')).toHaveLength(1);
    const noBody = await call('POST', `/admin/white-labels/${c.id}/signing-secret/rotate`);
    expect(noBody.statusCode).toBe(200);
    const bad = await call('POST', `/admin/white-labels/${c.id}/signing-secret/rotate`, {
      grace_seconds: -1,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 404 for unknown white labels and credentials', async () => {
    const c = (await create()).json();
    for (const [method, url] of [
      ['GET', '/admin/white-labels/nope'],
      ['PATCH', '/admin/white-labels/nope'],
      ['POST', '/admin/white-labels/nope/credentials'],
      ['POST', '/admin/white-labels/nope/signing-secret/rotate'],
      ['POST', `/admin/white-labels/nope/credentials/${c.client_id}/revoke`],
      ['POST', `/admin/white-labels/${c.id}/credentials/bkc_nope/revoke`],
    ] as const) {
      const r = await call(method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().error.code).toBe('not_found');
    }
    await expect(signingFor(t.deps, 'nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('needs the operator token: none 401, a wrong one 401, a partner token 401', async () => {
    const c = (await create()).json();
    const partner = await partnerToken(t.app, c.client_id, c.client_secret);
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-wrong-token' },
      { authorization: `Bearer ${partner}` },
    ]) {
      const r = await call('GET', '/admin/white-labels', undefined, headers as typeof ADMIN);
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });
});

describe('admin API without BOOKIE_ADMIN_TOKEN', () => {
  it('is closed (403)', async () => {
    const t = await createTestApp(db, { keepDatabase: true, env: { BOOKIE_ADMIN_TOKEN: '' } });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/admin/white-labels', headers: ADMIN });
      expect(r.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
