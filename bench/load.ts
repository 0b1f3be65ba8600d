import { Agent, request } from 'undici';

/** Result of a closed-loop load run. */
export interface LoadResult {
  ok: number;
  other: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
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

/**
 * Closed-loop load: `inFlight` workers each send requests from `next(worker, i)` (a POST unless it names another
 * method) until `total` were sent; `isOk` classifies an answer. Latency per request in ms.
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
        lat.push(performance.now() - t0);
        if (opts.isOk(res.statusCode, text)) ok++;
        else other++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  await agent.close();
  lat.sort((a, b) => a - b);
  return {
    ok,
    other,
    seconds,
    perSecond: ok / seconds,
    p50Ms: percentile(lat, 50),
    p99Ms: percentile(lat, 99),
  };
}
