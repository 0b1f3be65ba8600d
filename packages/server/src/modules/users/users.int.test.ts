import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { type ManualClock, manualClock } from '../../testing/partner.js';
import { createUser } from './create-user.js';
import { usersDeps } from './deps.js';
import { resetPassword } from './reset-password.js';
import {
  asUser,
  createTestUsers,
  logIn as logInAs,
  logInSession,
  TEST_PASSWORD,
  type TestSession,
  type UserCall,
  whiteLabelsAB,
} from './users.testing.js';

const PASSWORD = TEST_PASSWORD;

describe(`backoffice users and sessions (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let db: TestDatabase;
  let t: TestApp;
  let clock: ManualClock;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    clock = manualClock();
    t = await createTestApp(db, {
      clock,
      keepDatabase: true,
      env: {
        LOGIN_LOCKOUT_AFTER: '3',
        LOGIN_LOCKOUT_S: '600',
        USER_SESSION_TTL_S: '3600',
        LOGIN_RATE_LIMIT: '1000',
      },
    });
    ({ a, b } = await whiteLabelsAB(t.deps));
    const ud = usersDeps(t.deps);
    await createTestUsers(ud, [
      { email: 'ops@example.com', role: 'operator' },
      { email: 'Admin@A.example', role: 'partner_admin', whiteLabelId: a },
      { email: 'viewer@a.example', role: 'partner_viewer', whiteLabelId: a },
      { email: 'admin@b.example', role: 'partner_admin', whiteLabelId: b },
      { email: 'locked@a.example', role: 'partner_admin', whiteLabelId: a },
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const logIn = (email: string, password = PASSWORD, app = t.app, remoteAddress = '127.0.0.1') =>
    logInAs(app, email, password, remoteAddress);
  const session = (email: string): Promise<TestSession> => logInSession(t.app, email);
  const as = (...call: UserCall) => asUser(t.app, ...call);

  it('logs in with an HttpOnly SameSite=Strict cookie and a CSRF token; wrong passwords are 401', async () => {
    const s = await session('admin@a.example');
    expect(s.setCookie).toMatch(/^bookie_session=[A-Za-z0-9_-]{40,};/);
    expect(s.setCookie).toContain('HttpOnly');
    expect(s.setCookie).toContain('SameSite=Strict');
    expect(s.setCookie).toContain('Path=/');
    expect(s.setCookie).toContain('Max-Age=3600');
    expect(s.csrf.length).toBeGreaterThan(20);
    const me = await as(s, 'GET', '/backoffice/api/session');
    expect(me.json).toMatchObject({
      user: { email: 'admin@a.example', role: 'partner_admin', white_label_id: a },
    });
    expect(me.json.csrf_token).toBe(s.csrf);

    const wrong = await logIn('admin@a.example', 'not the password');
    expect(wrong.statusCode).toBe(401);
    const unknown = await logIn('nobody@a.example', 'not the password');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error.message).toBe(wrong.json().error.message);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/backoffice/api/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x@y.z' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toBe('body.password');
  });

  it('a partner user sees and changes only its own white label, and only what a partner may change', async () => {
    const s = await session('admin@a.example');
    expect((await as(s, 'GET', `/admin/white-labels/${a}`)).status).toBe(200);
    expect((await as(s, 'GET', `/admin/white-labels/${b}`)).status).toBe(404);
    expect((await as(s, 'PATCH', `/admin/white-labels/${b}`, { allowlist: ['10.0.0.1'] })).status).toBe(404);
    expect((await as(s, 'GET', '/admin/white-labels')).status).toBe(403);
    expect((await as(s, 'GET', '/bets')).status).toBe(200);
    expect((await as(s, 'GET', '/admin/callbacks')).status).toBe(200);
    expect((await as(s, 'GET', '/admin/audit-log')).status).toBe(403);

    const limits = await as(s, 'PATCH', `/admin/white-labels/${a}`, { limits: { max_stake: '1.000000' } });
    expect(limits.status).toBe(403);
    expect(limits.json.error.details.field).toBe('body.limits');

    const changed = await as(s, 'PATCH', `/admin/white-labels/${a}`, {
      allowlist: ['203.0.113.7', '127.0.0.1'],
    });
    expect(changed.status).toBe(200);
    expect(changed.json.allowlist).toEqual(['203.0.113.7', '127.0.0.1']);

    const rows = await t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', 'user:admin@a.example')
      .where('action', '=', 'PATCH /admin/white-labels/:id')
      .execute();
    expect(rows).toHaveLength(1);
    const details = rows[0]?.details as { before: { allowlist: string[] }; after: { allowlist: string[] } };
    expect(rows[0]?.subject).toBe(`white_label:${a}`);
    expect(details.before.allowlist).toEqual(['127.0.0.1', '::1']);
    expect(details.after.allowlist).toEqual(['203.0.113.7', '127.0.0.1']);
    expect(JSON.stringify(details)).not.toMatch(/whsec_/);
  });

  it('refuses a change without the session’s CSRF token, and any change by a viewer', async () => {
    const s = await session('admin@a.example');
    const none = await as(s, 'POST', `/admin/white-labels/${a}/credentials`, undefined, {
      'x-csrf-token': '',
    });
    expect(none.status).toBe(403);
    expect(none.json.error.details.field).toBe('headers.x-csrf-token');
    const other = await session('admin@b.example');
    const foreign = await as(s, 'POST', `/admin/white-labels/${a}/credentials`, undefined, {
      'x-csrf-token': other.csrf,
    });
    expect(foreign.status).toBe(403);
    const ok = await as(s, 'POST', `/admin/white-labels/${a}/credentials`);
    expect(ok.status).toBe(201);
    expect(ok.json.client_secret).toEqual(expect.any(String));

    const v = await session('viewer@a.example');
    expect((await as(v, 'GET', `/admin/white-labels/${a}`)).status).toBe(200);
    expect((await as(v, 'POST', `/admin/white-labels/${a}/credentials`)).status).toBe(403);
  });

  it('an operator user sees every white label and names the one of partner operations', async () => {
    const s = await session('ops@example.com');
    const list = await as(s, 'GET', '/admin/white-labels');
    expect(list.status).toBe(200);
    expect(list.json.white_labels.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining([a, b]));
    const missing = await as(s, 'GET', '/bets');
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.field).toBe('headers.x-white-label-id');
    expect((await as(s, 'GET', '/bets', undefined, { 'x-white-label-id': b })).status).toBe(200);
    const audit = await as(s, 'GET', '/admin/audit-log?limit=5');
    expect(audit.status).toBe(200);
    expect(audit.json.items.length).toBeGreaterThan(0);
    expect((await as(s, 'GET', '/admin/audit-log?limit=0')).status).toBe(400);
  });

  it('creates users over the API (operator only), with a generated password shown once', async () => {
    const ops = await session('ops@example.com');
    const created = await as(ops, 'POST', '/admin/users', {
      email: 'finance@a.example',
      role: 'partner_viewer',
      white_label_id: a,
    });
    expect(created.status).toBe(201);
    expect(created.json.user).toMatchObject({
      email: 'finance@a.example',
      role: 'partner_viewer',
      white_label_id: a,
    });
    expect((await logIn('finance@a.example', created.json.password)).statusCode).toBe(200);
    const taken = await as(ops, 'POST', '/admin/users', { email: 'finance@a.example', role: 'operator' });
    expect(taken.status).toBe(409);
    const bad = await as(ops, 'POST', '/admin/users', { email: 'x@y.z', role: 'root' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toMatch(/^body\.role/);
    const partner = await session('admin@a.example');
    expect(
      (await as(partner, 'POST', '/admin/users', { email: 'y@a.example', role: 'operator' })).status,
    ).toBe(403);
  });

  const A = '198.51.100.7';
  const B = '203.0.113.9';
  const lockedUntil = async (email: string, source: string) =>
    (
      await t.deps.database.db
        .selectFrom('login_throttle')
        .select('locked_until')
        .where('email', '=', email)
        .where('source', '=', source)
        .executeTakeFirst()
    )?.locked_until;

  it('answers an unknown email, a wrong password and a locked email the same', async () => {
    for (let i = 0; i < 3; i++)
      expect((await logIn('locked@a.example', 'wrong password!', t.app, A)).statusCode).toBe(401);
    expect(await lockedUntil('locked@a.example', A)).toBeTruthy();
    const locked = await logIn('locked@a.example', PASSWORD, t.app, A);
    const wrong = await logIn('viewer@a.example', 'wrong password!', t.app, A);
    const unknown = await logIn('nobody@a.example', 'wrong password!', t.app, A);
    for (const r of [locked, wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.body).toBe(unknown.body);
      expect(r.headers['retry-after']).toBeUndefined();
    }
    expect(unknown.json()).toEqual({
      error: { code: 'unauthorized', message: 'wrong email or password', details: {} },
    });
    // unknown emails are throttled like known ones: the same answer once locked too
    for (let i = 0; i < 3; i++) await logIn('ghost@a.example', 'wrong password!', t.app, A);
    expect(await lockedUntil('ghost@a.example', A)).toBeTruthy();
    expect((await logIn('ghost@a.example', 'wrong password!', t.app, A)).body).toBe(unknown.body);
    clock.advance(601_000);
    expect((await logIn('locked@a.example', PASSWORD, t.app, A)).statusCode).toBe(200);
  });

  it("an attacker's failures from one address do not lock the user out from another", async () => {
    for (let i = 0; i < 6; i++) {
      if (i > 0) clock.advance(60_000); // waits out the lock each time, so every guess counts
      expect((await logIn('locked@a.example', `guess number ${i}`, t.app, A)).statusCode).toBe(401);
    }
    expect(await lockedUntil('locked@a.example', A)).toEqual(new Date(clock.now() + 8_000));
    expect((await logIn('locked@a.example', PASSWORD, t.app, A)).statusCode).toBe(401);
    expect((await logIn('locked@a.example', PASSWORD, t.app, B)).statusCode).toBe(200);
    // and the attacker's address stays locked after the user's success elsewhere
    expect((await logIn('locked@a.example', PASSWORD, t.app, A)).statusCode).toBe(401);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'user.locked')
      .execute();
    expect(audit.some((r) => (r.details as { ip?: string }).ip === A)).toBe(true);
    clock.advance(601_000);
  });

  it('doubles the delay with each further failure from one address, up to LOGIN_LOCKOUT_S', async () => {
    const email = 'admin@b.example';
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      const before = clock.now();
      expect((await logIn(email, 'wrong password!', t.app, A)).statusCode).toBe(401);
      const until = await lockedUntil(email, A);
      const delay = until ? (new Date(until).getTime() - before) / 1000 : 0;
      delays.push(delay);
      clock.advance(delay * 1000 + 1);
    }
    expect(delays).toEqual([0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    expect((await logIn(email, 'wrong password!', t.app, A)).statusCode).toBe(401);
    const capped = await lockedUntil(email, A);
    expect((new Date(capped as Date).getTime() - clock.now()) / 1000).toBe(600);
    // within the lock even the right password is refused (and not counted); after it, it is accepted
    clock.advance(599_000);
    expect((await logIn(email, PASSWORD, t.app, A)).statusCode).toBe(401);
    expect(await lockedUntil(email, A)).toEqual(capped);
    clock.advance(1_001);
    expect((await logIn(email, PASSWORD, t.app, A)).statusCode).toBe(200);
    expect(await lockedUntil(email, A)).toBeUndefined();
  });

  it('ends sessions at expiry, at logout and at a password reset', async () => {
    const s = await session('viewer@a.example');
    clock.advance(3_601_000);
    expect((await as(s, 'GET', '/backoffice/api/session')).status).toBe(401);
    expect((await as(s, 'GET', `/admin/white-labels/${a}`)).status).toBe(401);

    const s2 = await session('viewer@a.example');
    const out = await as(s2, 'DELETE', '/backoffice/api/session');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/bookie_session=;/);
    expect((await as(s2, 'GET', '/backoffice/api/session')).status).toBe(401);

    const s3 = await session('viewer@a.example');
    const reset = await resetPassword(usersDeps(t.deps), { email: 'VIEWER@a.example', actor: 'test' });
    expect(reset.password).toEqual(expect.any(String));
    expect(reset.sessionsEnded).toBe(1);
    expect((await as(s3, 'GET', '/backoffice/api/session')).status).toBe(401);
    expect((await logIn('viewer@a.example')).statusCode).toBe(401);
    expect((await logIn('viewer@a.example', reset.password)).statusCode).toBe(200);
  });

  it('refuses bad users naming the field', async () => {
    const ud = usersDeps(t.deps);
    const cases: Array<[Parameters<typeof createUser>[1], string]> = [
      [{ email: 'no-at-sign', role: 'operator', actor: 't' }, 'email'],
      [{ email: 'x@y.z', role: 'root', actor: 't' }, 'role'],
      [{ email: 'x@y.z', role: 'partner_admin', actor: 't' }, 'white_label'],
      [{ email: 'x@y.z', role: 'operator', whiteLabelId: a, actor: 't' }, 'white_label'],
      [{ email: 'x@y.z', role: 'operator', password: 'short', actor: 't' }, 'password'],
      [{ email: 'ops@example.com', role: 'operator', actor: 't' }, 'email'],
      [{ email: 'x@y.z', role: 'partner_viewer', whiteLabelId: 'wl_nope', actor: 't' }, 'white_label'],
    ];
    for (const [input, field] of cases) {
      await expect(createUser(ud, input), field).rejects.toMatchObject({ details: { field } });
    }
  });

  it('limits login attempts per address', async () => {
    const limited = await createTestApp(db, { keepDatabase: true, env: { LOGIN_RATE_LIMIT: '2' } });
    try {
      expect((await logIn('ops@example.com', PASSWORD, limited.app)).statusCode).toBe(200);
      expect((await logIn('ops@example.com', 'wrong password!', limited.app)).statusCode).toBe(401);
      const third = await logIn('ops@example.com', PASSWORD, limited.app);
      expect(third.statusCode).toBe(429);
      expect(third.json().error.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
