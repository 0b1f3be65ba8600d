/**
 * Conformance of the trading feed: the spec 02 client procedure, run by the SDK's FeedReplica
 * against real `bookie start` processes. After every scenario the replica equals GET /all, compared as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SportEvent } from '@bookie/contracts';
import { FeedReplica, FileReplicaStore, LineSplitter, MemoryReplicaStore, serialiseState } from '@bookie/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { type BookieProcess, startBookie } from '../../testing/process.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { sampleEvent } from '../trading/fixtures.js';

const ENV = { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'info' };
/** Generous: each scenario starts real processes, and a loaded machine starts them slowly. */
const SLOW = { timeout: 240_000 };

/** A running server and a partner token for it. */
interface Feed {
  proc: BookieProcess;
  url: string;
  token: string;
}

async function startFeed(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Feed> {
  const proc = await startBookie(args, { env: { ...ENV, ...env }, timeoutMs: 120_000 });
  const p = await createPartner({ baseUrl: proc.url, adminToken: TEST_ADMIN_TOKEN });
  const token = await partnerToken(proc.url, p.clientId, p.clientSecret);
  return { proc, url: proc.url, token };
}

async function trading(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ id: string; version: string }> {
  const res = await request(`${url}/trading${path}`, {
    method: method as 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return JSON.parse(text);
}

async function createEvent(url: string, opts: { markets?: number; name?: string } = {}) {
  return trading(url, 'POST', '/sport-events', sampleEvent(opts));
}

/** `n` odd moves on one event; resolves to the last version. */
async function moveOdds(url: string, id: string, n: number, start = 0): Promise<bigint> {
  let v = '0';
  for (let i = start; i < start + n; i++) {
    v = (
      await trading(url, 'PATCH', `/sport-events/${id}/markets`, {
        markets: [
          {
            id: '1',
            odds: [{ id: '1', value: `2.${String(i % 50).padStart(2, '0')}` }],
            ...(i % 7 === 0 ? { status: i % 2 } : {}),
          },
        ],
      })
    ).version;
  }
  return BigInt(v);
}

async function getAll(feed: Feed): Promise<{ version: bigint; events: SportEvent[] }> {
  const res = await request(`${feed.url}/all`, { headers: { authorization: `Bearer ${feed.token}` } });
  expect(res.statusCode).toBe(200);
  const lines = (await res.body.text()).split('\n').filter(Boolean);
  const events = lines
    .map((l) => JSON.parse(l) as SportEvent)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { version: BigInt(res.headers['last-version'] as string), events };
}

/** The scenario's closing check: the replica reaches the head and equals /all as JSON. */
async function expectEqualsAll(replica: FeedReplica, feed: Feed): Promise<void> {
  const all = await getAll(feed);
  await replica.waitFor(all.version, 20_000);
  expect(JSON.parse(JSON.stringify(replica.toJSON()))).toEqual(all.events);
}

function replicaFor(
  feed: Feed,
  opts: Partial<ConstructorParameters<typeof FeedReplica>[0]> = {},
): FeedReplica {
  const r = new FeedReplica({
    baseUrl: feed.url,
    token: async () => feed.token,
    heartbeatIntervalS: 1,
    backoff: { initialMs: 50, maxMs: 500 },
    conflictGuard: { max: 5, windowMs: 10_000 },
    ...opts,
  });
  r.on('warning', () => {});
  return r;
}

const pgDatabases: TestDatabase[] = [];
async function dbArgs(): Promise<string[]> {
  if (!process.env.DATABASE_URL) return [];
  const db = await createTestDatabase({ migrate: false });
  pgDatabases.push(db);
  return ['--db-url', db.url!];
}

describe(`feed conformance against real processes (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let feed: Feed;
  const dir = mkdtempSync(join(tmpdir(), 'bookie-feed-e2e-'));
  beforeAll(async () => {
    feed = await startFeed(await dbArgs(), { FEED_CONNECTION_BUFFER_BYTES: '16384' });
  }, 180_000);
  afterAll(async () => {
    await feed?.proc.kill('SIGTERM');
    for (const db of pgDatabases) await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'answers 400 without Last-Version; a replica runs the 4-step procedure and equals /all',
    SLOW,
    async () => {
      const res = await request(`${feed.url}/log`, { headers: { authorization: `Bearer ${feed.token}` } });
      expect(res.statusCode).toBe(400);
      expect(((await res.body.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
        'headers.last-version',
      );
      const a = await createEvent(feed.url, { markets: 3 });
      const replica = replicaFor(feed);
      const resyncs: bigint[] = [];
      replica.on('resync', (v) => resyncs.push(v));
      await replica.start();
      await moveOdds(feed.url, a.id, 20);
      await expectEqualsAll(replica, feed);
      expect(resyncs).toHaveLength(1);
      expect(replica.connected).toBe(true);
      expect(replica.isBettingAllowed(a.id, '2', '1')).toBe(true);
      await replica.stop();
      expect(replica.isBettingAllowed(a.id, '2', '1')).toBe(false);
    },
  );

  it(
    'a client restarted mid-stream goes on from its saved version (file store) with no resync',
    SLOW,
    async () => {
      const { id } = await createEvent(feed.url, { markets: 2 });
      const store = new FileReplicaStore(join(dir, 'client-restart.jsonl'));
      const first = replicaFor(feed, { store, checkpointIntervalMs: 100 });
      await first.start();
      const startedAt = first.version;
      const writing = moveOdds(feed.url, id, 120);
      // stopped mid-stream: once it has applied changes from the log past the version it started at
      await expect.poll(() => first.version !== undefined && first.version !== startedAt).toBe(true);
      await first.stop();
      const stoppedAt = first.version!;
      const second = replicaFor(feed, { store });
      const resyncs: bigint[] = [];
      second.on('resync', (v) => resyncs.push(v));
      await second.start();
      expect(second.version).toBe(stoppedAt);
      const last = await writing;
      expect(last).toBeGreaterThan(stoppedAt);
      await expectEqualsAll(second, feed);
      expect(resyncs).toEqual([]);
      await second.stop();
    },
  );

  it('a slow consumer gets every entry in order without slowing a fast replica', SLOW, async () => {
    const { id } = await createEvent(feed.url, { markets: 1 });
    const fast = replicaFor(feed);
    await fast.start();
    const start = (await getAll(feed)).version;
    // the slow consumer: reads one chunk, then stalls while ~6 MB are written
    const controller = new AbortController();
    const res = await request(`${feed.url}/log`, {
      headers: { authorization: `Bearer ${feed.token}`, 'last-version': start.toString() },
      signal: controller.signal,
    });
    const got: bigint[] = [];
    const splitter = new LineSplitter((l) => {
      const e = JSON.parse(l) as { v?: string };
      if (e.v) got.push(BigInt(e.v));
    });
    const iterator = res.body[Symbol.asyncIterator]();
    let last = 0n;
    for (let b = 0; b < 30; b++) {
      last = BigInt(
        (
          await trading(feed.url, 'POST', `/sport-events/${id}/changes`, {
            changes: Object.fromEntries(
              Array.from({ length: 20 }, (_, i) => [`meta/k${i}`, 'y'.repeat(10_000)]),
            ),
          })
        ).version,
      );
    }
    // the fast replica is at the head while the slow one has read nothing
    await fast.waitFor(last, 20_000);
    expect(got).toEqual([]);
    for (;;) {
      const { value, done } = await iterator.next();
      if (done) break;
      splitter.push(value as Buffer);
      if (got.at(-1) === last) break;
    }
    controller.abort();
    expect(got).toHaveLength(30);
    for (let i = 1; i < got.length; i++) expect(got[i]! > got[i - 1]!).toBe(true);
    await expectEqualsAll(fast, feed);
    await fast.stop();
  });

  it('a multi-byte UTF-8 character split across chunks arrives intact', SLOW, async () => {
    const name = 'Zürich – 東京 ⚽ 😀';
    const { id } = await createEvent(feed.url, { markets: 1, name });
    // a loopback proxy that cuts every multi-byte character of the server's answers in two, with a pause between
    const target = new URL(feed.url);
    let splits = 0;
    const proxy: Server = createServer((client: Socket) => {
      const upstream = new (require_net().Socket)();
      upstream.connect(Number(target.port), target.hostname);
      client.setNoDelay(true);
      client.pipe(upstream);
      let chain = Promise.resolve();
      upstream.on('data', (data: Buffer) => {
        chain = chain.then(async () => {
          let from = 0;
          for (let i = 0; i < data.length; i++) {
            if (data[i]! >= 0xc0 && i + 1 < data.length) {
              client.write(data.subarray(from, i + 1));
              from = i + 1;
              splits++;
              await new Promise((r) => setTimeout(r, 2));
            }
          }
          client.write(data.subarray(from));
        });
      });
      upstream.on('end', () => chain.then(() => client.end()));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as { port: number }).port;
    const replica = replicaFor({ ...feed, url: `http://127.0.0.1:${port}` });
    await replica.start();
    await trading(feed.url, 'PATCH', `/sport-events/${id}/fixture`, { meta: { note: '½ ✓ 漢字' } });
    await expectEqualsAll(replica, feed);
    expect(replica.getEvent(id)!.fixture.competitors.c1!.name).toBe(name);
    expect(replica.getEvent(id)!.fixture.meta).toMatchObject({ note: '½ ✓ 漢字' });
    expect(splits).toBeGreaterThan(5);
    await replica.stop();
    proxy.close();
  });

  if (process.env.DATABASE_URL) {
    it(
      'two server processes on one Postgres stream the same log (Postgres only: runs in the DATABASE_URL pass)',
      SLOW,
      async () => {
        const second = await startFeed(['--db-url', pgDatabases[0]!.url!]);
        try {
          const replica = replicaFor(second);
          await replica.start();
          const { id } = await createEvent(feed.url, { markets: 2 });
          await moveOdds(feed.url, id, 30);
          await expectEqualsAll(replica, feed);
          await expectEqualsAll(replica, second);
          await replica.stop();
        } finally {
          await second.proc.kill('SIGTERM');
        }
      },
    );
  }
});

describe('feed conformance: 409 and server restarts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bookie-feed-e2e2-'));
  afterAll(async () => {
    for (const db of pgDatabases) await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('409 then resync: below the retention floor, and above the head', SLOW, async () => {
    const feed = await startFeed(await dbArgs(), {
      FEED_LOG_RETENTION_S: '1',
      FEED_RETENTION_INTERVAL_S: '1',
    });
    try {
      const { id } = await createEvent(feed.url, { markets: 1 });
      const store = new MemoryReplicaStore();
      const first = replicaFor(feed, { store });
      await first.start();
      await first.waitFor(BigInt((await getAll(feed)).version));
      await first.stop();
      const saved = first.version!;
      await moveOdds(feed.url, id, 5);
      // retention (every 1 s, 1 s of log) removes entries after the saved version
      for (let i = 0; i < 100; i++) {
        const controller = new AbortController();
        const r = await request(`${feed.url}/log`, {
          headers: { authorization: `Bearer ${feed.token}`, 'last-version': saved.toString() },
          signal: controller.signal,
        });
        controller.abort();
        await r.body.dump().catch(() => {});
        if (r.statusCode === 409) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      const second = replicaFor(feed, { store });
      const events: string[] = [];
      second.on('warning', (e) => events.push((e as Error).name));
      second.on('resync', () => events.push('resync'));
      await second.start();
      await moveOdds(feed.url, id, 3, 100);
      await expectEqualsAll(second, feed);
      expect(events.slice(0, 2)).toEqual(['FeedConflictError', 'resync']);
      await second.stop();
      // a saved version above the head
      const ahead = new MemoryReplicaStore();
      await ahead.save(serialiseState((await getAll(feed)).version + 1000n, []));
      const third = replicaFor(feed, { store: ahead });
      const seen: string[] = [];
      third.on('warning', (e) => seen.push((e as Error).name));
      // its version is above the head: waitFor would be satisfied at once, so wait for the resync
      const resynced = new Promise((r) => third.once('resync', r));
      await third.start();
      await resynced;
      await expectEqualsAll(third, feed);
      expect(seen[0]).toBe('FeedConflictError');
      await third.stop();
    } finally {
      await feed.proc.kill('SIGTERM');
    }
  });

  it('a server restarted mid-stream: the replica reconnects and goes on', SLOW, async () => {
    const args = process.env.DATABASE_URL ? await dbArgs() : ['--data-dir', join(dir, 'data')];
    let feed = await startFeed(args);
    const { id } = await createEvent(feed.url, { markets: 2 });
    const replica = replicaFor(feed);
    const connections: string[] = [];
    replica.on('connected', () => connections.push('up'));
    replica.on('disconnected', () => connections.push('down'));
    await replica.start();
    await moveOdds(feed.url, id, 20);
    await replica.waitFor((await getAll(feed)).version);
    expect(replica.isBettingAllowed(id, '2', '1')).toBe(true);
    const port = new URL(feed.url).port;
    expect(await feed.proc.kill('SIGTERM')).toBe(0);
    // the replica notices the lost connection (a condition, not a fixed time: slow under load)
    await waitUntil(() => !replica.connected, 60_000);
    expect(replica.isBettingAllowed(id, '2', '1')).toBe(false);
    const proc = await startBookie([...args, '--port', port], { env: ENV, timeoutMs: 120_000 });
    feed = { ...feed, proc, url: proc.url };
    try {
      await moveOdds(feed.url, id, 20, 20);
      await expectEqualsAll(replica, feed);
      expect(connections.filter((c) => c === 'up').length).toBeGreaterThanOrEqual(2);
      expect(replica.connected).toBe(true);
      await replica.stop();
    } finally {
      await proc.kill('SIGTERM');
    }
  });
});

// node:net's Socket, without a second import name clash with the type above
function require_net(): typeof import('node:net') {
  return netModule;
}

import * as netModule from 'node:net';
