import type { SportEvent } from '@bookie/contracts';
import { LineSplitter } from '@bookie/sdk';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../app/server.js';
import { loadConfig } from '../../platform/config.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';
import { setBetStop } from '../trading/set-bet-stop.js';
import { runTradingCommand } from '../trading/writer.js';
import { runRetention } from './run-retention.js';

/** Reads /log lines until `until` says stop. */
async function readLog(
  url: string,
  headers: Record<string, string>,
  until: (lines: Record<string, unknown>[]) => boolean,
  opts: { pauseFirstMs?: number; query?: string } = {},
) {
  const controller = new AbortController();
  const res = await request(`${url}/log${opts.query ?? ''}`, { headers, signal: controller.signal });
  const lines: Record<string, unknown>[] = [];
  if (res.statusCode !== 200) return { res, lines, body: await res.body.text() };
  const splitter = new LineSplitter((l) => lines.push(JSON.parse(l)));
  try {
    for await (const chunk of res.body) {
      splitter.push(chunk as Buffer);
      if (until(lines)) break;
      if (opts.pauseFirstMs) {
        await new Promise((r) => setTimeout(r, opts.pauseFirstMs));
        opts.pauseFirstMs = 0;
      }
    }
  } finally {
    controller.abort();
  }
  return { res, lines, body: '' };
}

describe(`feed endpoints (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  let server: RunningServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await createTestDatabase();
    const config = loadConfig({
      BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      FEED_CONNECTION_BUFFER_BYTES: '4096',
      FEED_STREAM_RECHECK_MS: '100',
    });
    server = await startServer({ ...config, port: 0 }, { database: t, logger: pino({ level: 'silent' }) });
    const p = await createPartner({ database: t });
    auth = { authorization: `Bearer ${await partnerToken(server.url, p.clientId, p.clientSecret)}` };
  });
  afterAll(async () => {
    await server?.stop();
    await t?.close();
  });
  const deps = () => server.deps;

  async function all() {
    const res = await request(`${server.url}/all`, { headers: auth });
    const body = await res.body.text();
    const events = body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as SportEvent)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    return { res, events, version: BigInt(res.headers['last-version'] as string) };
  }

  it('refuses requests without a partner token', async () => {
    for (const path of ['/all', '/log']) {
      const res = await request(`${server.url}${path}`, { headers: { 'last-version': '0' } });
      expect(res.statusCode).toBe(401);
      await res.body.dump();
    }
  });

  it('/all streams one snapshot per line with Last-Version, Last-Version-Hex and X-Api-Version', async () => {
    const a = await createSportEvent(deps(), sampleEvent({ markets: 3 }));
    const b = await createSportEvent(deps(), sampleEvent({ markets: 0, name: 'Zürich – 東京 ⚽' }));
    const { res, events, version } = await all();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-api-version']).toBe('2');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(version).toBe(b.version);
    expect(res.headers['last-version-hex']).toBe(b.version.toString(16));
    expect(events.map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
    // the server's own catalog holds the same book
    await server.deps.feed.catalog.waitFor(version);
    expect(server.deps.feed.catalog.toJSON()).toEqual(events);
  });

  it('/log answers 400 without or with a malformed Last-Version, or a bad heartbeat_interval', async () => {
    for (const [headers, query, field] of [
      [{}, '', 'headers.last-version'],
      [{ 'last-version': 'abc' }, '', 'headers.last-version'],
      [{ 'last-version': '-1' }, '', 'headers.last-version'],
      [{ 'last-version': '0' }, '?heartbeat_interval=0', 'querystring.heartbeat_interval'],
      [{ 'last-version': '0' }, '?heartbeat_interval=x', 'querystring.heartbeat_interval'],
    ] as const) {
      const r = await readLog(server.url, { ...auth, ...headers }, () => true, { query });
      expect(r.res.statusCode).toBe(400);
      expect(JSON.parse(r.body).error.details.field).toBe(field);
    }
  });

  it('/log streams the backlog, a heartbeat, then live entries, with no gap and no duplicate', async () => {
    const { id, version: v0 } = await createSportEvent(deps(), sampleEvent({ markets: 1 }));
    await setBetStop(deps(), { id, betStop: true });
    let target = 0n;
    const writer = (async () => {
      await new Promise((r) => setTimeout(r, 100));
      let v = 0n;
      for (let i = 0; i < 30; i++) v = (await setBetStop(deps(), { id, betStop: i % 2 === 0 })).version;
      target = v;
    })();
    const r = await readLog(
      server.url,
      { ...auth, 'last-version': String(v0 - 1n) },
      (lines) => target > 0n && lines.some((l) => l.v === String(target)),
      { query: '?heartbeat_interval=1' },
    );
    await writer;
    expect(r.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(r.res.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    expect(r.res.headers['x-api-version']).toBe('2');
    const entries = r.lines.filter((l) => l.type !== 'heartbeat');
    const vs = entries.map((l) => BigInt(l.v as string));
    expect(vs[0]).toBe(v0);
    for (let i = 1; i < vs.length; i++) expect(vs[i]! > vs[i - 1]!).toBe(true);
    expect(vs.at(-1)).toBe(target);
    // the whole log between v0 and target, nothing missing
    const rows = await t.db
      .selectFrom('feed_log')
      .select('v')
      .where('v', '>=', v0)
      .where('v', '<=', target)
      .orderBy('v')
      .execute();
    expect(vs).toEqual(rows.map((x) => x.v));
    expect(r.lines.findIndex((l) => l.type === 'heartbeat')).toBeGreaterThan(0);
  });

  it('ends an open /log stream once its credential is revoked or its address leaves the allowlist', async () => {
    const { version } = await all();
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const cases = [
      {
        why: 'revoked',
        cut: (p: { whiteLabelId: string; clientId: string }) =>
          request(`${server.url}/admin/white-labels/${p.whiteLabelId}/credentials/${p.clientId}/revoke`, {
            method: 'POST',
            headers: admin,
          }),
        after: 401,
      },
      {
        why: 'allowlist',
        cut: (p: { whiteLabelId: string }) =>
          request(`${server.url}/admin/white-labels/${p.whiteLabelId}`, {
            method: 'PATCH',
            headers: admin,
            body: JSON.stringify({ allowlist: ['192.0.2.1'] }),
          }),
        after: 403,
      },
    ];
    for (const c of cases) {
      const p = await createPartner({ database: t });
      const headers = {
        authorization: `Bearer ${await partnerToken(server.url, p.clientId, p.clientSecret)}`,
        'last-version': String(version),
      };
      const res = await request(`${server.url}/log?heartbeat_interval=1`, { headers });
      expect(res.statusCode).toBe(200);
      const lines: Record<string, unknown>[] = [];
      const splitter = new LineSplitter((l) => lines.push(JSON.parse(l)));
      let cutAt = 0;
      const reading = (async () => {
        for await (const chunk of res.body) {
          splitter.push(chunk as Buffer);
          if (cutAt === 0 && lines.length > 0) {
            // caught up (the first heartbeat): now cut its access
            cutAt = performance.now();
            const answer = await c.cut(p);
            expect(answer.statusCode, c.why).toBeLessThan(300);
            await answer.body.dump();
          }
        }
        return performance.now();
      })();
      // the stream ends by itself, while the heartbeats would have gone on for ever (the bound only catches a
      // stream that never ends; how soon it ends depends on the machine's load, so it is not asserted)
      const timeout = new Promise<number>((r) => setTimeout(() => r(-1), 60_000));
      const ended = await Promise.race([reading, timeout]);
      expect(ended, c.why).toBeGreaterThan(0);
      expect(cutAt, c.why).toBeGreaterThan(0);
      const again = await request(`${server.url}/log`, { headers });
      expect(again.statusCode, c.why).toBe(c.after);
      await again.body.dump();
    }
  });

  it('answers 409 above the head and below the retention floor; refetch appends match_new (202, 404)', async () => {
    const { version } = await all();
    let r = await readLog(server.url, { ...auth, 'last-version': String(version + 1000n) }, () => true);
    expect(r.res.statusCode).toBe(409);
    expect(r.res.headers['x-api-version']).toBe('2');
    const { id } = await createSportEvent(deps(), sampleEvent({ markets: 1 }));
    const ref = await request(`${server.url}/refetch/sport-event/${id}`, { method: 'POST', headers: auth });
    expect(ref.statusCode).toBe(202);
    const { version: rv } = (await ref.body.json()) as { version: string };
    const missing = await request(`${server.url}/refetch/sport-event/nope`, {
      method: 'POST',
      headers: auth,
    });
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
    const got = await readLog(
      server.url,
      { ...auth, 'last-version': String(BigInt(rv) - 1n) },
      (l) => l.length > 0,
    );
    expect(got.lines[0]).toMatchObject({ v: rv, type: 'match_new', sport_event_id: id });
    // everything older than "now + 1 s" goes: the floor becomes the head
    const res = await runRetention(
      { database: t, clock: { now: () => Date.now() + 10_000 } },
      { logRetentionS: 1, snapshotRetentionS: 1_000_000 },
    );
    expect(res.floor).toBe(BigInt(rv));
    r = await readLog(server.url, { ...auth, 'last-version': String(version) }, () => true);
    expect(r.res.statusCode).toBe(409);
    expect(JSON.parse(r.body).error.code).toBe('version_expired');
    r = await readLog(server.url, { ...auth, 'last-version': rv }, (l) => l.length > 0);
    expect(r.res.statusCode).toBe(200);
    expect(r.lines[0]).toMatchObject({ type: 'heartbeat' });
  });

  it(
    'a slow reader falls back to catching up and still gets every entry in order',
    { timeout: 120_000 },
    async () => {
      const { id, version: v0 } = await createSportEvent(deps(), sampleEvent({ markets: 1 }));
      const before = server.deps.feed.hub.slowFallbacks;
      let last = 0n;
      const reading = readLog(
        server.url,
        { ...auth, 'last-version': String(v0) },
        (lines) => last > 0n && lines.some((l) => l.v === String(last)),
        { pauseFirstMs: 1500 },
      );
      await new Promise((r) => setTimeout(r, 50));
      // ~16 MB, more than the loopback socket buffers hold while the reader pauses
      let v = 0n;
      for (let b = 0; b < 20; b++) {
        const { versions } = await runTradingCommand(deps(), async (tx) => {
          for (let i = 0; i < 100; i++)
            await tx.matchUpdate(id, { 'meta/filler': 'x'.repeat(8000), 'meta/i': i });
        });
        v = versions.at(-1)!;
      }
      last = v;
      const r = await reading;
      const vs = r.lines.filter((l) => l.type !== 'heartbeat').map((l) => BigInt(l.v as string));
      expect(vs).toHaveLength(2000);
      for (let i = 1; i < vs.length; i++) expect(vs[i]! > vs[i - 1]!).toBe(true);
      expect(server.deps.feed.hub.slowFallbacks).toBeGreaterThan(before);
    },
  );
});
