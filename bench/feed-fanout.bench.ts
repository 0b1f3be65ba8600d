/**
 * Entries/s streamed to each of 100 live /log subscribers (target ≥ 20,000), also for 1 subscriber.
 * An in-process server (PGlite in memory, or DATABASE_URL) writes `n` match_update entries in transactions of 500;
 * every subscriber follows /log live from the head and counts lines. Baseline in the same run: a bare node:http
 * server writing the same bytes to the same number of sockets.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Agent, request } from 'undici';
import { startServer } from '../packages/server/src/app/server.js';
import { createSportEvent } from '../packages/server/src/modules/trading/create-sport-event.js';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import { runTradingCommand } from '../packages/server/src/modules/trading/writer.js';
import { loadConfig } from '../packages/server/src/platform/config.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../packages/server/src/testing/partner.js';
import type { BenchResult } from './types.js';

async function subscribe(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  expected: number,
): Promise<{ done: Promise<number>; abort: () => void }> {
  const controller = new AbortController();
  const res = await request(url, { dispatcher: agent, headers, signal: controller.signal });
  if (res.statusCode !== 200) throw new Error(`subscribe: ${res.statusCode} ${await res.body.text()}`);
  const done = (async () => {
    let lines = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      let i = b.indexOf(10);
      while (i >= 0) {
        lines++;
        i = b.indexOf(10, i + 1);
      }
      if (lines >= expected) return performance.now();
    }
    throw new Error('stream ended');
  })();
  done.catch(() => {});
  return { done, abort: () => controller.abort() };
}

async function fanout(subscribers: number, n: number) {
  const config = loadConfig({
    BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    FEED_RETENTION_INTERVAL_S: '0',
    BOOKIE_DATA_DIR: 'memory',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const server = await startServer({ ...config, port: 0 }, { logger: pino({ level: 'warn' }) });
  const p = await createPartner({ database: server.deps.database });
  const token = await partnerToken(server.url, p.clientId, p.clientSecret);
  const { id, version } = await createSportEvent(server.deps, sampleEvent({ markets: 10 }));
  const agent = new Agent({ connections: subscribers + 4 });
  // each subscriber: one heartbeat after the (empty) backlog, then n entries
  const subs = await Promise.all(
    Array.from({ length: subscribers }, () =>
      subscribe(
        agent,
        `${server.url}/log`,
        { authorization: `Bearer ${token}`, 'last-version': version.toString() },
        n + 1,
      ),
    ),
  );
  await new Promise((r) => setTimeout(r, 200));
  // commit every entry first with the fan-out held back, then release it at once: this measures the fan-out,
  // not the writer (whose rate is reported on its own)
  const hub = server.deps.feed.hub;
  const poke = hub.poke.bind(hub);
  hub.poke = () => {};
  const w0 = performance.now();
  let written = 0;
  while (written < n) {
    const batch = Math.min(500, n - written);
    await runTradingCommand(server.deps, async (t) => {
      for (let i = 0; i < batch; i++) {
        const k = written + i;
        await t.matchUpdate(id, {
          [`markets/${1 + (k % 10)}/odds/${1 + (k % 3)}/value`]: `${2 + (k % 7)}.5`,
        });
      }
    });
    written += batch;
  }
  const writerRate = n / ((performance.now() - w0) / 1000);
  const t0 = performance.now();
  hub.poke = poke;
  poke();
  const ends = await Promise.all(subs.map((s) => s.done));
  const last = Math.max(...ends);
  for (const s of subs) s.abort();
  await agent.close();
  await server.stop();
  const seconds = (last - t0) / 1000;
  return { perSubscriber: n / seconds, writerRate, seconds };
}

/** The same line volume from a bare node:http server to the same number of sockets (the machine's ceiling). */
async function bare(subscribers: number, n: number) {
  const line = Buffer.from(
    `{"v":"123456","sport_event_id":"00000000-0000-4000-8000-000000000001","type":"match_update","timestamp":1893456000,"changes":{"markets/3/odds/2/value":"4.500000000000","updated_at":"2030-01-01T00:00:00.000Z"}}\n`,
  );
  const batch = Buffer.concat(Array.from({ length: 500 }, () => line));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('{"type":"heartbeat","timestamp":1}\n');
    let sent = 0;
    const pump = () => {
      while (sent < n) {
        sent += 500;
        if (!res.write(batch)) return void res.once('drain', pump);
      }
    };
    (server as unknown as { start: Promise<void> }).start.then(pump);
  });
  let go!: () => void;
  (server as unknown as { start: Promise<void> }).start = new Promise<void>((r) => {
    go = r;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const agent = new Agent({ connections: subscribers + 4 });
  const subs = await Promise.all(Array.from({ length: subscribers }, () => subscribe(agent, url, {}, n + 1)));
  const t0 = performance.now();
  go();
  const last = Math.max(...(await Promise.all(subs.map((s) => s.done))));
  for (const s of subs) s.abort();
  await agent.close();
  server.closeAllConnections();
  server.close();
  return { perSubscriber: n / ((last - t0) / 1000) };
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const n = Number(args[0] ?? 20_000);
  const out: BenchResult[] = [];
  for (const subscribers of [1, 100]) {
    const b = await bare(subscribers, n);
    const f = await fanout(subscribers, n);
    out.push({
      name: `fanout_${subscribers}`,
      metrics: {
        entries_per_s_per_subscriber: Math.round(f.perSubscriber),
        target_entries_per_s: 20_000,
        writer_entries_per_s: Math.round(f.writerRate),
        bare_socket_entries_per_s_per_subscriber: Math.round(b.perSubscriber),
        ratio_to_bare: f.perSubscriber / b.perSubscriber,
        seconds: f.seconds,
      },
      note: `${n} live entries to ${subscribers} subscriber(s) from head, in-process ${process.env.DATABASE_URL ? 'postgres' : 'pglite'}; entries committed first, then released to the live fan-out; time to the last subscriber's last line; clients in the same process`,
    });
  }
  return out;
}
