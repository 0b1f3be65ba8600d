/**
 * GET /all of 10,000 events with 50 markets each (targets: ≤ 1 s in all, first byte ≤ 100 ms, no event-loop
 * stall > 50 ms; peak memory reported). In-process server on PGlite in memory (or DATABASE_URL); snapshots are
 * seeded straight into the table. The client (in the same process) only counts bytes.
 * Baseline in the same run: a bare node:http server sending the same bytes from memory.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { request } from 'undici';
import { startServer } from '../packages/server/src/app/server.js';
import { buildSnapshot } from '../packages/server/src/modules/trading/build-snapshot.js';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import { loadConfig } from '../packages/server/src/platform/config.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../packages/server/src/testing/partner.js';
import type { BenchResult } from './types.js';

async function fetchAll(url: string, headers: Record<string, string>) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 10);
  h.enable();
  const t0 = performance.now();
  const res = await request(url, { headers });
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    if (firstByte === 0) firstByte = performance.now() - t0;
    bytes += b.length;
    let i = b.indexOf(10);
    while (i >= 0) {
      lines++;
      i = b.indexOf(10, i + 1);
    }
  }
  const total = performance.now() - t0;
  h.disable();
  clearInterval(sampler);
  return {
    status: res.statusCode,
    total_ms: total,
    first_byte_ms: firstByte,
    max_event_loop_delay_ms: h.max / 1e6,
    peak_rss_delta_mb: (peakRss - base.rss) / 2 ** 20,
    peak_heap_delta_mb: (peakHeap - base.heapUsed) / 2 ** 20,
    bytes,
    lines,
  };
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const events = Number(args[0] ?? 10_000);
  const markets = Number(args[1] ?? 50);
  const config = loadConfig({
    BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    FEED_RETENTION_INTERVAL_S: '0',
    BOOKIE_DATA_DIR: 'memory',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const server = await startServer({ ...config, port: 0 }, { logger: pino({ level: 'warn' }) });
  const db = server.deps.database.db;
  const template = buildSnapshot(
    sampleEvent({ markets }),
    '00000000-0000-4000-8000-000000000000',
    '2030-01-01T00:00:00.000Z',
  );
  for (const m of Object.values(template.markets))
    for (const o of Object.values(m.odds)) o.value = `${o.value}000000000`;
  const json = JSON.stringify(template);
  const seeded: string[] = [];
  for (let i = 0; i < events; i += 200) {
    const rows = [];
    for (let j = i; j < Math.min(events, i + 200); j++) {
      const id = `00000000-0000-4000-8000-${String(j).padStart(12, '0')}`;
      rows.push({
        id,
        version: BigInt(j + 1),
        fixture_status: 0,
        snapshot: json.replaceAll('00000000-0000-4000-8000-000000000000', id),
      });
    }
    await db.insertInto('sport_event').values(rows).execute();
    seeded.push(rows[0]!.id);
  }
  const p = await createPartner({ database: server.deps.database });
  const token = await partnerToken(server.url, p.clientId, p.clientSecret);
  const headers = { authorization: `Bearer ${token}` };
  await fetchAll(`${server.url}/all`, headers); // warm-up
  const runs = [await fetchAll(`${server.url}/all`, headers), await fetchAll(`${server.url}/all`, headers)];
  const best = runs.sort((a, b) => a.total_ms - b.total_ms)[0]!;
  if (best.lines !== events) throw new Error(`got ${best.lines} lines, expected ${events}`);

  // baseline: the same bytes from memory through a bare node:http server
  const body = Buffer.from(`${json}\n`.repeat(1));
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    let k = 0;
    const pump = () => {
      while (k < events) {
        k++;
        if (!res.write(body)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareRun = await fetchAll(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`, {});
  bare.close();
  await server.stop();
  return [
    {
      name: 'all_10k_events_50_markets',
      metrics: {
        total_ms: best.total_ms,
        target_total_ms: 1000,
        first_byte_ms: best.first_byte_ms,
        target_first_byte_ms: 100,
        max_event_loop_delay_ms: best.max_event_loop_delay_ms,
        target_max_event_loop_delay_ms: 50,
        peak_rss_delta_mb: best.peak_rss_delta_mb,
        peak_heap_delta_mb: best.peak_heap_delta_mb,
        body_mb: best.bytes / 2 ** 20,
        bare_total_ms: bareRun.total_ms,
        ratio_to_bare: best.total_ms / bareRun.total_ms,
      },
      note: `${events} events × ${markets} markets × 3 odds, ${process.env.DATABASE_URL ? 'postgres' : 'pglite'} in-process, best of 2 after a warm-up; client in the same process`,
    },
  ];
}
