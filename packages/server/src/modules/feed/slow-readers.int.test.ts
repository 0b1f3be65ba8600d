import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase } from '../../testing/database.js';
import { createPartner, partnerToken } from '../../testing/partner.js';
import { waitUntil } from '../../testing/scripted-partner.js';

const ENTRIES = 1000;
const PAD = 50_000;
const READERS = 10;
const MB = 1024 * 1024;

/**
 * Memory the server holds: the JS heap and the buffers outside it, after a full collection. RSS would also count the
 * allocator's freed pages (data that passed through to the kernel's socket buffers), which it keeps at its discretion.
 */
function held(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** A full garbage collection, so that RSS shows what is held rather than garbage not yet collected. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Slow `/log` readers are bounded (docs/adr/0016-safety-and-conformance.md): readers catching up from version 0 that
 * never read their sockets hold about one connection buffer each, not the backlog's pages.
 */
describe(`slow /log readers (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let port: number;
  let token: string;
  const sockets: Socket[] = [];
  const responses: ServerResponse[] = [];

  beforeAll(async () => {
    t = await createTestApp(await createTestDatabase());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const p = await createPartner({ database: t.deps.database });
    token = await partnerToken(t.app, p.clientId, p.clientSecret);
    t.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/log')) responses.push(res);
    });
    // a backlog of 1000 entries of 50 kB (50 MB), written straight into the log
    await sql`
      INSERT INTO feed_log (v, sport_event_id, type, line)
      SELECT v, 'slow-readers', 'bet_rollback',
        '{"v":"' || v || '","sport_event_id":"slow-readers","type":"bet_rollback","timestamp":0,"match_id":"slow-readers","market_ids":["x"],"reason":"x","dt_start":"2030-01-01T00:00:00Z","dt_end":"2030-01-01T00:00:00Z","pad":"'
          || repeat('x', ${PAD}) || '"}'
      FROM (SELECT nextval('feed_version_seq') AS v FROM generate_series(1, ${ENTRIES})) s`.execute(
      t.deps.database.db,
    );
    const head = await sql<{ v: string }>`SELECT max(v)::text AS v FROM feed_log`.execute(t.deps.database.db);
    t.deps.feed.poke();
    await waitUntil(() => t.deps.feed.hub.head >= BigInt(head.rows[0]!.v), 60_000);
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await t?.close();
  });

  it('holds about one connection buffer per non-reading catch-up stream, not the backlog (< 50 MB for 10)', async () => {
    collectGarbage();
    const before = held();
    for (let i = 0; i < READERS; i++) {
      const s = connect(port, '127.0.0.1');
      sockets.push(s);
      s.write(
        `GET /log HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nLast-Version: 0\r\n\r\n`,
      );
      s.pause(); // never reads
    }
    // every stream has filled its buffer and waits for the socket to drain
    await waitUntil(
      () => responses.length === READERS && responses.every((r) => r.writableNeedDrain),
      60_000,
    );
    const queued = responses.map((r) => r.writableLength);
    collectGarbage();
    const grown = (held() - before) / MB;
    expect(Math.max(...queued), `queued bytes per stream: ${queued.join(', ')}`).toBeLessThan(4 * MB);
    expect(grown, `memory held grew by ${grown.toFixed(1)} MB`).toBeLessThan(50);
  }, 120_000);
});
