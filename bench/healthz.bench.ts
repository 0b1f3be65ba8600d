/**
 * Baseline HTTP round trip: GET /healthz on an in-process server over loopback, 16 in flight,
 * next to a bare node:http server answering the same JSON (the ratio is what to compare across machines).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { startServer } from '../packages/server/src/app/server.js';
import { loadConfig } from '../packages/server/src/platform/config.js';
import type { BenchResult } from './types.js';

async function load(url: string, total: number, inFlight: number): Promise<number> {
  const agent = new Agent({ connections: inFlight, pipelining: 1 });
  let sent = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent < total) {
        sent++;
        const res = await request(url, { dispatcher: agent });
        await res.body.dump();
      }
    }),
  );
  const s = (performance.now() - start) / 1000;
  await agent.close();
  return total / s;
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 20000);
  const bare = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"ok"}');
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  const server = await startServer({ ...loadConfig({ LOG_LEVEL: 'warn' }), port: 0, dataDir: undefined });
  await load(bareUrl, 2000, 16);
  await load(`${server.url}/healthz`, 2000, 16);
  const bareRps = await load(bareUrl, total, 16);
  const rps = await load(`${server.url}/healthz`, total, 16);
  await server.stop();
  bare.close();
  return [
    {
      name: 'healthz',
      metrics: { requests_per_s: rps, bare_requests_per_s: bareRps, ratio_to_bare: rps / bareRps },
      note: `${total} requests, 16 in flight, loopback`,
    },
  ];
}
