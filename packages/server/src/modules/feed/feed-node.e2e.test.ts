/**
 * Feed nodes on a streaming replica: a `bookie start --role feed` process on a hot standby made with
 * `pg_basebackup` serves the same feed as the primary's processes — the same versions, the same 409 rules —
 * following the replica's replay position, and refuses writes.
 */
import type { SportEvent } from '@bookie/contracts';
import { FeedReplica, MemoryReplicaStore } from '@bookie/sdk';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { type BookieProcess, startBookie } from '../../testing/process.js';
import { type StreamingPair, startStreamingPair } from '../../testing/replica.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { sampleEvent } from '../trading/fixtures.js';

const ENV = { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'warn' };

async function trading(url: string, method: string, path: string, body?: unknown) {
  const res = await request(`${url}/trading${path}`, {
    method: method as 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return JSON.parse(text) as { id: string; version: string };
}

async function moveOdds(url: string, id: string, n: number, start = 0): Promise<void> {
  for (let i = start; i < start + n; i++) {
    await trading(url, 'PATCH', `/sport-events/${id}/markets`, {
      markets: [{ id: '1', odds: [{ id: '1', value: `2.${String(i % 50).padStart(2, '0')}` }] }],
    });
  }
}

async function getAll(url: string, token: string): Promise<{ version: bigint; events: SportEvent[] }> {
  const res = await request(`${url}/all`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode).toBe(200);
  const events = (await res.body.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SportEvent)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { version: BigInt(res.headers['last-version'] as string), events };
}

async function logStatus(url: string, token: string, after: bigint): Promise<number> {
  const controller = new AbortController();
  const r = await request(`${url}/log`, {
    headers: { authorization: `Bearer ${token}`, 'last-version': after.toString() },
    signal: controller.signal,
  });
  controller.abort();
  await r.body.dump().catch(() => {});
  return r.statusCode;
}

const replicaOf = (url: string, token: string, store = new MemoryReplicaStore()) => {
  const r = new FeedReplica({
    baseUrl: url,
    token: async () => token,
    heartbeatIntervalS: 1,
    backoff: { initialMs: 50, maxMs: 500 },
    conflictGuard: { max: 5, windowMs: 10_000 },
    store,
  });
  r.on('warning', () => {});
  return r;
};

const json = (r: FeedReplica) => JSON.parse(JSON.stringify(r.toJSON()));

if (process.env.DATABASE_URL) {
  describe('a feed node on a streaming replica (postgres)', () => {
    let pair: StreamingPair | undefined;
    const procs: BookieProcess[] = [];
    afterAll(async () => {
      for (const p of procs) await p.kill('SIGTERM').catch(() => {});
      await pair?.close();
    });

    it('serves the primary feed with the same versions and 409 rules, and refuses writes', async () => {
      pair = await startStreamingPair();
      const primary = await startBookie(['--db-url', pair.primaryUrl], {
        env: { ...ENV, FEED_LOG_RETENTION_S: '2', FEED_RETENTION_INTERVAL_S: '1', LEADER_LEASE_MS: '1000' },
        timeoutMs: 120_000,
      });
      procs.push(primary);
      // the primary migrated the database; the replica replays it
      const node = await startBookie(['--role', 'feed', '--db-url', pair.replicaUrl], {
        env: ENV,
        timeoutMs: 120_000,
      });
      procs.push(node);
      const partner = await createPartner({ baseUrl: primary.url, adminToken: TEST_ADMIN_TOKEN });
      const token = await partnerToken(primary.url, partner.clientId, partner.clientSecret);

      // writes are refused on the feed node, before anything touches the replica
      const write = await request(`${node.url}/trading/sport-events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(sampleEvent({})),
      });
      expect(write.statusCode).toBe(403);
      expect(await write.body.text()).toMatch(/read-only feed node/);

      const { id } = await trading(primary.url, 'POST', '/sport-events', sampleEvent({ markets: 2 }));
      const onPrimary = replicaOf(primary.url, token);
      const store = new MemoryReplicaStore();
      const onNode = replicaOf(node.url, token, store);
      await onPrimary.start();
      await onNode.start();
      // a burst of trading on the primary
      const second = await trading(primary.url, 'POST', '/sport-events', sampleEvent({ markets: 3 }));
      await moveOdds(primary.url, id, 25);
      await moveOdds(primary.url, second.id, 15, 60);
      const head = await getAll(primary.url, token);
      await onPrimary.waitFor(head.version, 30_000);
      await onNode.waitFor(head.version, 30_000);
      expect(json(onNode)).toEqual(json(onPrimary));
      expect(json(onNode)).toEqual(head.events);
      // the node's own /all, once its replica replayed the head: the same version and bytes
      await waitUntil(async () => (await getAll(node.url, token)).version >= head.version, 30_000);
      expect(await getAll(node.url, token)).toEqual(head);
      // the frame's catalogue too, for a player session issued by the primary
      const session = await createSession(primary.url, token, { player_id: 'viewer' });
      const frameEvent = async (url: string) => {
        const r = await request(`${url}/frame-api/sport-events/${id}`, {
          headers: { authorization: `Bearer ${session}` },
        });
        return { status: r.statusCode, body: await r.body.json() };
      };
      // the session works on the node once its replica replayed it (the primary answered as soon as it committed)
      await waitUntil(async () => (await frameEvent(node.url)).status === 200, 30_000);
      const fromNode = await frameEvent(node.url);
      expect(fromNode).toEqual(await frameEvent(primary.url));
      await onNode.stop();
      const saved = onNode.version!;

      // trading goes on; retention on the primary removes the entries after the saved version: the node answers
      // 409 below the replicated floor, like the primary
      await moveOdds(primary.url, id, 5, 100);
      await waitUntil(async () => (await logStatus(primary.url, token, saved)) === 409, 30_000);
      await waitUntil(async () => (await logStatus(node.url, token, saved)) === 409, 30_000);
      const again = replicaOf(node.url, token, store);
      const seen: string[] = [];
      again.on('warning', (e) => seen.push((e as Error).name));
      again.on('resync', () => seen.push('resync'));
      await again.start();
      await moveOdds(primary.url, id, 3, 200);
      const last = await getAll(primary.url, token);
      await again.waitFor(last.version, 30_000);
      await onPrimary.waitFor(last.version, 30_000);
      expect(seen.slice(0, 2)).toEqual(['FeedConflictError', 'resync']);
      expect(json(again)).toEqual(json(onPrimary));
      expect(json(again)).toEqual(last.events);
      await again.stop();
      await onPrimary.stop();
    }, 240_000);
  });
} else {
  describe('a feed node needs Postgres (pglite)', () => {
    it('refuses --role feed on the embedded database, naming the setting', () => {
      expect(() => loadConfig({ BOOKIE_ROLE: 'feed' })).toThrow(ConfigError);
      expect(() => loadConfig({ BOOKIE_ROLE: 'feed' })).toThrow(/BOOKIE_ROLE.*Postgres|Postgres/);
      expect(() => loadConfig({ BOOKIE_ROLE: 'writer' })).toThrow(/expected all or feed/);
      expect(loadConfig({ BOOKIE_ROLE: 'feed', DATABASE_URL: 'postgres://h/db' }).scaleOut.role).toBe('feed');
    });
  });
}
