import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureFrameBuilt } from '@bookie/frame/build';
import { verifyCallback } from '@bookie/sdk';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameDeps } from '../../app/module-deps.js';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { installErrorHandler } from '../../http/error-handler.js';
import { createTestDatabase } from '../../testing/database.js';
import {
  createSession,
  type ManualClock,
  manualClock,
  partnerWithToken,
  TEST_ADMIN_TOKEN,
} from '../../testing/partner.js';
import { serveFrame } from './frame-static.js';
import { endsSession, sendHeartbeats } from './send-heartbeats.js';

/** A partner's callback server: records what it gets; the heartbeat and banner answers are set per test. */
class PartnerServer {
  server: Server;
  url = '';
  heartbeats: IncomingHttpHeaders[] = [];
  banners: { headers: IncomingHttpHeaders; body: string }[] = [];
  heartbeatAnswer: { status: number; body: string } = { status: 204, body: '' };
  bannerAnswer: { status: number; body: unknown } = { status: 200, body: { banners: [] } };

  constructor() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.url === '/heartbeat') {
          this.heartbeats.push(req.headers);
          res.writeHead(this.heartbeatAnswer.status, { 'content-type': 'application/json' });
          return res.end(this.heartbeatAnswer.body);
        }
        if (req.url === '/banners') {
          this.banners.push({ headers: req.headers, body });
          res.writeHead(this.bannerAnswer.status, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(this.bannerAnswer.body));
        }
        res.writeHead(404).end();
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe(`the frame API across origins, heartbeats and banners (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let clock: ManualClock;
  const partnerServer = new PartnerServer();
  let a: Awaited<ReturnType<typeof partnerWithToken>>;
  let tokenA: string;
  const ORIGIN_A = 'https://casino-a.example';
  const ORIGIN_B = 'https://casino-b.example';

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const admin = (method: 'PATCH', url: string, body: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  beforeAll(async () => {
    await ensureFrameBuilt();
    await partnerServer.start();
    clock = manualClock(Date.now());
    t = await createTestApp(await createTestDatabase(), {
      clock,
      env: { HEARTBEAT_INTERVAL_S: '10', BANNER_CACHE_S: '60' },
    });
    a = await partnerWithToken({ database: t.deps.database }, t.app, {
      callback_url: partnerServer.url,
      optional_callbacks: { heartbeat: true },
    });
    await partnerWithToken({ database: t.deps.database }, t.app, { allowed_origins: [ORIGIN_B] });
    const patched = await admin('PATCH', `/admin/white-labels/${a.whiteLabelId}`, {
      allowed_origins: [`${ORIGIN_A}/`],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().allowed_origins).toEqual([ORIGIN_A]);
    tokenA = await createSession(t.app, a.token, { player_id: 'p1', params: { player: 'p1' } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    partnerServer.server.close();
  });

  it('refuses a bad origin in the admin API, naming the entry', async () => {
    const r = await admin('PATCH', `/admin/white-labels/${a.whiteLabelId}`, {
      allowed_origins: [ORIGIN_A, 'https://casino-a.example/frame'],
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.details.field).toBe('allowed_origins[1]');
  });

  it('answers a preflight from an origin some white label allows, and refuses an unknown one', async () => {
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: '/frame-api/bets',
      headers: { origin: ORIGIN_A, 'access-control-request-method': 'POST' },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    expect(ok.headers['access-control-allow-headers']).toContain('authorization');
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    const bad = await t.app.inject({
      method: 'OPTIONS',
      url: '/frame-api/bets',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error.details.field).toBe('origin');
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("allows the session's own white label's origin only", async () => {
    const mine = await get('/frame-api/sport-events', {
      authorization: `Bearer ${tokenA}`,
      origin: ORIGIN_A,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    expect(mine.headers.vary).toContain('Origin');
    const other = await get('/frame-api/sport-events', {
      authorization: `Bearer ${tokenA}`,
      origin: ORIGIN_B,
    });
    expect(other.statusCode).toBe(403);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // a refused token is readable by the frame, so it can ask its host for a new one
    const expired = await get('/frame-api/sport-events', { authorization: 'Bearer nope', origin: ORIGIN_A });
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['access-control-allow-origin']).toBe(ORIGIN_A);
    // no Origin: not a browser, no CORS headers
    const server = await get('/frame-api/sport-events', { authorization: `Bearer ${tokenA}` });
    expect(server.statusCode).toBe(200);
    expect(server.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('tells a page whether its origin is allowed for the session, readable from any origin, without a preflight', async () => {
    const probe = (token: string, origin?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/frame-api/origin',
        headers: { 'content-type': 'text/plain;charset=UTF-8', ...(origin ? { origin } : {}) },
        payload: token,
      });
    const mine = await probe(tokenA, ORIGIN_A);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ origin: ORIGIN_A, allowed: true });
    expect(mine.headers['access-control-allow-origin']).toBe('*');
    // allowed by another white label only, and allowed by none: both "not allowed", both readable
    for (const origin of [ORIGIN_B, 'https://evil.example']) {
      const other = await probe(tokenA, origin);
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual({ origin, allowed: false });
      expect(other.headers['access-control-allow-origin']).toBe('*');
    }
    expect((await probe(tokenA)).json()).toEqual({ origin: null, allowed: true });
    const unknown = await probe('nope', ORIGIN_A);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
    expect((await probe('', ORIGIN_A)).statusCode).toBe(400);
  });

  it('sends one heartbeat per interval to each active frame session, with its Foreign-Params, signed', async () => {
    const deps = frameDeps(t.deps);
    partnerServer.heartbeats = [];
    await get('/frame-api/sport-events', { authorization: `Bearer ${tokenA}` });
    await expect.poll(async () => (await sendHeartbeats(deps)).sent).toBe(1);
    expect(partnerServer.heartbeats).toHaveLength(1);
    const h = partnerServer.heartbeats[0]!;
    expect(JSON.parse(String(h['foreign-params']))).toEqual({ player: 'p1' });
    expect(() => verifyCallback(h as Record<string, string>, '', a.signingSecret)).not.toThrow();
    // claimed for this interval: nothing more now, one more next interval
    expect((await sendHeartbeats(deps)).sent).toBe(0);
    clock.advance(10_000);
    expect((await sendHeartbeats(deps)).sent).toBe(1);
    // the frame went away: after two intervals without a call, no more heartbeats
    clock.advance(25_000);
    expect((await sendHeartbeats(deps)).sent).toBe(0);
  });

  it.each([
    [{ status: 404, body: '{"error":{"code":"not_found"}}' }],
    [{ status: 400, body: '{"error":{"code":"auth_credentials_expired"}}' }],
    [{ status: 400, body: '{"error":{"code":"auth_session_unknown"}}' }],
  ])('ends the session when the partner answers %j, and tells the frame at once', async (answer) => {
    const deps = frameDeps(t.deps);
    const token = await createSession(t.app, a.token, { player_id: 'p2', params: { player: 'p2' } });
    clock.advance(60_000);
    expect((await get('/frame-api/sport-events', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const session = await t.deps.database.db
      .selectFrom('session_token')
      .select(['id', 'last_seen_at'])
      .where('player_id', '=', 'p2')
      .where('ended_at', 'is', null)
      .executeTakeFirstOrThrow();
    // the frame's activity is recorded in the background
    await expect
      .poll(
        async () =>
          (
            await t.deps.database.db
              .selectFrom('session_token')
              .select('last_seen_at')
              .where('id', '=', session.id)
              .executeTakeFirstOrThrow()
          ).last_seen_at !== null,
      )
      .toBe(true);
    const told: string[] = [];
    const off = t.deps.sessionEvents.onEnded(session.id, (reason) => told.push(reason));
    partnerServer.heartbeatAnswer = answer;
    try {
      const round = await sendHeartbeats(deps);
      expect(round.ended).toEqual([session.id]);
    } finally {
      partnerServer.heartbeatAnswer = { status: 204, body: '' };
      off();
    }
    expect(told).toEqual(['heartbeat']);
    expect((await get('/frame-api/sport-events', { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('knows which heartbeat answers end a session', () => {
    expect(endsSession(404, null)).toBe(true);
    expect(endsSession(400, '{"error":{"code":"auth_credentials_expired"}}')).toBe(true);
    expect(endsSession(400, '{"error":{"code":"auth_session_unknown"}}')).toBe(true);
    expect(endsSession(400, '{"error":{"code":"not_enough_balance"}}')).toBe(false);
    expect(endsSession(400, 'auth_credentials_expired')).toBe(false);
    expect(endsSession(405, null)).toBe(false);
    expect(endsSession(501, null)).toBe(false);
    expect(endsSession(500, 'oops')).toBe(false);
    expect(endsSession(null, null)).toBe(false);
  });

  /** A frame session of a new white label on the partner server, used by the frame now. */
  async function activeSession(opts: Parameters<typeof partnerWithToken>[2], player: string) {
    const p = await partnerWithToken({ database: t.deps.database }, t.app, {
      callback_url: partnerServer.url,
      ...opts,
    });
    const token = await createSession(t.app, p.token, { player_id: player, params: { player } });
    expect((await get('/frame-api/sport-events', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const session = await t.deps.database.db
      .selectFrom('session_token')
      .select('id')
      .where('white_label_id', '=', p.whiteLabelId)
      .executeTakeFirstOrThrow();
    await expect
      .poll(
        async () =>
          (
            await t.deps.database.db
              .selectFrom('session_token')
              .select('last_seen_at')
              .where('id', '=', session.id)
              .executeTakeFirstOrThrow()
          ).last_seen_at !== null,
      )
      .toBe(true);
    return { partner: p, token, sessionId: session.id };
  }

  const heartbeatsOf = (player: string) =>
    partnerServer.heartbeats.filter((h) => JSON.parse(String(h['foreign-params'])).player === player);

  it('sends no heartbeat to a white label that did not announce heartbeats, and never logs its players out', async () => {
    const deps = frameDeps(t.deps);
    const silent = await activeSession({}, 'quiet-1');
    const refused = await activeSession({ optional_callbacks: { heartbeat: false } }, 'quiet-2');
    // even a partner that would answer 404 to a heartbeat
    partnerServer.heartbeatAnswer = { status: 404, body: '' };
    try {
      for (let i = 0; i < 4; i++) {
        const round = await sendHeartbeats(deps);
        expect(round.ended).not.toContain(silent.sessionId);
        expect(round.ended).not.toContain(refused.sessionId);
        clock.advance(10_000);
        // the frames stay in use
        for (const s of [silent, refused]) {
          expect(
            (await get('/frame-api/sport-events', { authorization: `Bearer ${s.token}` })).statusCode,
          ).toBe(200);
        }
      }
    } finally {
      partnerServer.heartbeatAnswer = { status: 204, body: '' };
    }
    expect(heartbeatsOf('quiet-1')).toEqual([]);
    expect(heartbeatsOf('quiet-2')).toEqual([]);
  });

  it.each([
    405, 501,
  ])('learns from a %i that the white label has no heartbeat: the session goes on, and no heartbeat follows', async (status) => {
    const deps = frameDeps(t.deps);
    const s = await activeSession({ optional_callbacks: { heartbeat: true } }, `nohb-${status}`);
    partnerServer.heartbeatAnswer = { status, body: '' };
    try {
      const round = await sendHeartbeats(deps);
      expect(round.ended).toEqual([]);
    } finally {
      partnerServer.heartbeatAnswer = { status: 204, body: '' };
    }
    expect(heartbeatsOf(`nohb-${status}`)).toHaveLength(1);
    const wl = await admin('PATCH', `/admin/white-labels/${s.partner.whiteLabelId}`, {});
    expect(wl.json().optional_callbacks.heartbeat).toMatchObject({
      announced: true,
      learnt: 'unsupported',
      last_status: status,
      supported: false,
    });
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'white_label.optional_callback_learnt')
      .where('subject', '=', `white_label:${s.partner.whiteLabelId}`)
      .execute();
    expect(audit.map((r) => (typeof r.details === 'string' ? JSON.parse(r.details) : r.details))).toEqual([
      { callback: 'heartbeat', learnt: 'unsupported', status },
    ]);
    clock.advance(10_000);
    expect((await get('/frame-api/sport-events', { authorization: `Bearer ${s.token}` })).statusCode).toBe(
      200,
    );
    await sendHeartbeats(deps);
    expect(heartbeatsOf(`nohb-${status}`)).toHaveLength(1);
  });

  it.each([
    [{ status: 500, body: 'oops' }],
    [{ status: 400, body: '{"error":{"code":"not_found"}}' }],
    [{ status: 503, body: '{"error":{"code":"maintenance"}}' }],
  ])('keeps the session when a heartbeat is answered %j', async (answer) => {
    const deps = frameDeps(t.deps);
    const player = `keep-${answer.status}-${answer.body.length}`;
    const s = await activeSession({ optional_callbacks: { heartbeat: true } }, player);
    partnerServer.heartbeatAnswer = answer;
    try {
      const round = await sendHeartbeats(deps);
      expect(round.ended).toEqual([]);
    } finally {
      partnerServer.heartbeatAnswer = { status: 204, body: '' };
    }
    expect(heartbeatsOf(player)).toHaveLength(1);
    expect((await get('/frame-api/sport-events', { authorization: `Bearer ${s.token}` })).statusCode).toBe(
      200,
    );
  });

  it("shows the partner's banners, cached per locale and placement; a failure shows none", async () => {
    partnerServer.banners = [];
    partnerServer.bannerAnswer = {
      status: 200,
      body: {
        banners: [
          {
            id: 'b1',
            image_url: 'https://cdn.example/b1.png',
            link_url: 'https://casino-a.example/p',
            title: 'Hi',
          },
          { id: 'bad', image_url: 'javascript:alert(1)', link_url: 'https://x.example', title: 'no' },
        ],
      },
    };
    const auth = { authorization: `Bearer ${tokenA}` };
    const first = await get('/frame-api/banners?placement=top&locale=de', auth);
    expect(first.statusCode).toBe(200);
    expect(first.json().banners.map((b: { id: string }) => b.id)).toEqual(['b1']);
    expect(JSON.parse(partnerServer.banners[0]!.body)).toEqual({
      locale: 'de',
      placement: 'top',
      player_id: 'p1',
    });
    expect(() =>
      verifyCallback(
        partnerServer.banners[0]!.headers as Record<string, string>,
        partnerServer.banners[0]!.body,
        a.signingSecret,
      ),
    ).not.toThrow();
    await get('/frame-api/banners?placement=top&locale=de', auth);
    expect(partnerServer.banners).toHaveLength(1);
    partnerServer.bannerAnswer = { status: 500, body: {} };
    const failed = await get('/frame-api/banners?placement=side&locale=de', auth);
    expect(failed.json()).toEqual({ banners: [] });
    const bad = await get('/frame-api/banners?placement=Top%20Left', auth);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.field).toMatch(/^querystring/);
  });

  it('asks no banners of a white label that announced it has none', async () => {
    const s = await activeSession({ optional_callbacks: { banners: false } }, 'no-banners');
    partnerServer.banners = [];
    const r = await get('/frame-api/banners?placement=top&locale=en', { authorization: `Bearer ${s.token}` });
    expect(r.json()).toEqual({ banners: [] });
    expect(partnerServer.banners).toEqual([]);
  });

  it.each([
    404, 405, 501,
  ])('learns from a %i that the white label has no banners, and asks no more', async (status) => {
    const s = await activeSession({}, `banners-${status}`);
    partnerServer.banners = [];
    partnerServer.bannerAnswer = { status, body: {} };
    const auth = { authorization: `Bearer ${s.token}` };
    try {
      expect((await get('/frame-api/banners?placement=top&locale=en', auth)).json()).toEqual({ banners: [] });
    } finally {
      partnerServer.bannerAnswer = { status: 200, body: { banners: [] } };
    }
    expect(partnerServer.banners).toHaveLength(1);
    const wl = await admin('PATCH', `/admin/white-labels/${s.partner.whiteLabelId}`, {});
    expect(wl.json().optional_callbacks.banners).toMatchObject({
      learnt: 'unsupported',
      last_status: status,
    });
    // past the white label cache: not asked again (another placement, so no banner cache either)
    clock.advance(2_000);
    expect((await get('/frame-api/banners?placement=side&locale=en', auth)).json()).toEqual({ banners: [] });
    expect(partnerServer.banners).toHaveLength(1);
  });

  it("lists the player's available bonuses for the bet slip", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/freebet/create',
      headers: { ...a.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        player_id: 'p1',
        currency_code: 'EUR',
        amount: '5',
        conditions: [
          { type: 'bet_details', data: { bet_details: [{ type: 'single', data: { sport: ['football'] } }] } },
        ],
      }),
    });
    expect(created.statusCode).toBe(201);
    const r = await get('/frame-api/bonuses', { authorization: `Bearer ${tokenA}` });
    expect(r.statusCode).toBe(200);
    expect(r.json().items).toEqual([
      expect.objectContaining({ id: created.json().id, kind: 'freebet', value: '5.000000', currency: 'EUR' }),
    ]);
  });

  it('serves the built frame at /frame/ to any origin', async () => {
    const r = await get('/frame/bootstrap.js', { origin: 'https://anywhere.example' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('javascript');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.body).toContain('bettingLoader');
  });

  it('says how to build the frame when the build is missing', async () => {
    const app = Fastify();
    installErrorHandler(app);
    await serveFrame(app, '/nonexistent/frame/dist');
    const r = await app.inject({ method: 'GET', url: '/frame/bootstrap.js' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error.message).toContain('npm run build:frame');
    await app.close();
  });

  it('documents the new frame operations', async () => {
    const doc = (await get('/openapi.json')).json();
    for (const [path, id] of [
      ['/frame-api/banners', 'getFrameBanners'],
      ['/frame-api/bonuses', 'listFramePlayerBonuses'],
    ] as const) {
      expect(doc.paths[path].get.operationId).toBe(id);
      expect(doc.paths[path].get.responses['401']).toBeDefined();
    }
    expect(doc.paths['/frame-api/origin'].post.operationId).toBe('checkFrameOrigin');
  });
});
