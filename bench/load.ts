import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';

/** Result of a closed-loop load run. */
export interface LoadResult {
  ok: number;
  other: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** One request of a closed loop: a POST unless it names another method. */
export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Closed-loop runs so far in this process: each one's latency dump has a file of its own. */
let runs = 0;

/**
 * Closed-loop load: `inFlight` workers each send requests from `next(worker, i)` (a POST unless it names another
 * method) until `total` were sent; `isOk` classifies an answer. Latency per request in ms.
 *
 * With `BENCH_LAT_DUMP=<dir>`, each run also writes `<dir>/lat-<run>.json`: one `[sent at, ms since the epoch;
 * latency, ms; ok 1/0]` per request in the order they were sent, to set beside the server's GC and event-loop
 * timeline (bench/timeline.mjs, bench/tail.ts).
 */
export async function closedLoop(opts: {
  url: string;
  total: number;
  inFlight: number;
  next: (worker: number, i: number) => LoadRequest;
  isOk: (status: number, body: string) => boolean;
}): Promise<LoadResult> {
  const agent = new Agent({ connections: opts.inFlight, pipelining: 1 });
  const lat: number[] = [];
  const dumpDir = process.env.BENCH_LAT_DUMP;
  const dump: Array<[number, number, number]> = [];
  let sent = 0;
  let ok = 0;
  let other = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: opts.inFlight }, async (_, w) => {
      let i = 0;
      while (sent < opts.total) {
        sent++;
        const req = opts.next(w, i++);
        const t0 = performance.now();
        const res = await request(`${opts.url}${req.path}`, {
          method: req.method ?? 'POST',
          headers: req.headers,
          body: req.body ?? null,
          dispatcher: agent,
        });
        const text = await res.body.text();
        const ms = performance.now() - t0;
        lat.push(ms);
        const good = opts.isOk(res.statusCode, text);
        if (good) ok++;
        else other++;
        if (dumpDir) dump.push([performance.timeOrigin + t0, ms, good ? 1 : 0]);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await agent.close();
  lat.sort((a, b) => a - b);
  if (dumpDir) {
    mkdirSync(dumpDir, { recursive: true });
    dump.sort((a, b) => a[0] - b[0]);
    writeFileSync(join(dumpDir, `lat-${runs++}.json`), JSON.stringify(dump));
  }
  return {
    ok,
    other,
    seconds,
    perSecond: ok / seconds,
    p50Ms: percentile(lat, 50),
    p90Ms: percentile(lat, 90),
    p99Ms: percentile(lat, 99),
    p999Ms: percentile(lat, 99.9),
    maxMs: lat.at(-1) ?? 0,
  };
}
