/**
 * Sets a bench's request latencies beside the Bookie process's garbage collections and event-loop stalls (both
 * written under `BENCH_TIMELINE=<dir>`, bench/timeline.ts):
 *
 *   node --import tsx bench/tail.ts <dir> [run]   — run: which closed loop (default the last, the measured one)
 *
 * Prints the latency percentiles, the GC pauses by kind over the run, and how the slowest 1% of requests overlap
 * pauses and stalls compared with all requests: a tail made by pauses shows as a far larger overlap in the slow 1%.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Lat = [sentAt: number, ms: number, ok: number];
type Gc = [at: number, kind: string, ms: number];
type Stall = [at: number, ms: number];

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/tail.ts <dir> [run]');
const lats = readdirSync(dir)
  .filter((f) => /^lat-\d+\.json$/.test(f))
  .sort((a, b) => Number(a.slice(4, -5)) - Number(b.slice(4, -5)));
const latFile = process.argv[3] !== undefined ? `lat-${process.argv[3]}.json` : lats.at(-1);
if (!latFile) throw new Error(`no lat-*.json in ${dir}`);
const reqs = JSON.parse(readFileSync(join(dir, latFile), 'utf8')) as Lat[];
const tl = readdirSync(dir).filter((f) => /^bookie-\d+\.json$/.test(f));
const { gc, stalls, loopDelay } = JSON.parse(readFileSync(join(dir, tl.at(-1) as string), 'utf8')) as {
  gc: Gc[];
  stalls: Stall[];
  loopDelay: Record<string, number>;
};

const t0 = reqs[0]?.[0] ?? 0;
const t1 = Math.max(...reqs.map((r) => r[0] + r[1]));
const sorted = reqs.map((r) => r[1]).sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
const f = (n: number) => n.toFixed(1);
console.log(
  `${latFile}: ${reqs.length} requests over ${f((t1 - t0) / 1000)} s; mean ${f(mean)} p50 ${f(pct(50))} p90 ${f(pct(90))} p99 ${f(pct(99))} p99.9 ${f(pct(99.9))} max ${f(pct(100))} ms; p99/mean ${(pct(99) / mean).toFixed(2)}`,
);

const inRun = gc.filter((g) => g[0] >= t0 && g[0] <= t1);
const byKind = new Map<string, number[]>();
for (const g of inRun) byKind.set(g[1], [...(byKind.get(g[1]) ?? []), g[2]]);
for (const [kind, ds] of byKind) {
  ds.sort((a, b) => a - b);
  const total = ds.reduce((a, b) => a + b, 0);
  console.log(
    `gc ${kind}: ${ds.length} (${f(ds.length / ((t1 - t0) / 1000))}/s), total ${f(total)} ms (${((100 * total) / (t1 - t0)).toFixed(1)}% of wall, ${((1000 * total) / reqs.length).toFixed(0)} µs/request), median ${ds[Math.floor(ds.length / 2)]?.toFixed(2)} max ${ds.at(-1)?.toFixed(2)} ms`,
  );
}
const stallsIn = stalls.filter((s) => s[0] >= t0 && s[0] <= t1);
console.log(
  `event-loop stalls > threshold: ${stallsIn.length}, total ${f(stallsIn.reduce((a, s) => a + s[1], 0))} ms, max ${f(Math.max(0, ...stallsIn.map((s) => s[1])))} ms; loop delay over the life ${JSON.stringify(loopDelay)}`,
);

// the share of requests whose span holds a pause (a GC of the kind, or a stall), slow 1% against all
const overlaps = (r: Lat, at: number, ms: number) => at < r[0] + r[1] && at + ms > r[0];
const pauseMs = (r: Lat, pauses: Array<[number, number]>) =>
  pauses.reduce((a, [at, ms]) => (overlaps(r, at, ms) ? a + ms : a), 0);
const slowCut = pct(99);
const slow = reqs.filter((r) => r[1] >= slowCut);
const kinds: Array<[string, Array<[number, number]>]> = [
  ...[...byKind.keys()].map((k): [string, Array<[number, number]>] => [
    `gc ${k}`,
    inRun.filter((g) => g[1] === k).map((g) => [g[0], g[2]]),
  ]),
  ['stall', stallsIn],
];
for (const [name, pauses] of kinds) {
  const share = (rs: Lat[]) => rs.filter((r) => pauseMs(r, pauses) > 0).length / Math.max(1, rs.length);
  const meanPause = (rs: Lat[]) => rs.reduce((a, r) => a + pauseMs(r, pauses), 0) / Math.max(1, rs.length);
  console.log(
    `${name}: in ${(100 * share(slow)).toFixed(0)}% of the slowest 1% (pause in them ${f(meanPause(slow))} ms on average) vs ${(100 * share(reqs)).toFixed(0)}% of all (${f(meanPause(reqs))} ms)`,
  );
}

// latency over time: 20 slices of the run
const slices = 20;
const width = (t1 - t0) / slices;
const rows: string[] = [];
for (let i = 0; i < slices; i++) {
  const rs = reqs.filter((r) => r[0] >= t0 + i * width && r[0] < t0 + (i + 1) * width).map((r) => r[1]);
  rs.sort((a, b) => a - b);
  const gcs = inRun.filter((g) => g[0] >= t0 + i * width && g[0] < t0 + (i + 1) * width);
  const mc = gcs.filter((g) => g[1] !== 'scavenge').reduce((a, g) => a + g[2], 0);
  const sc = gcs.filter((g) => g[1] === 'scavenge').reduce((a, g) => a + g[2], 0);
  const st = stallsIn.filter((s) => s[0] >= t0 + i * width && s[0] < t0 + (i + 1) * width);
  rows.push(
    `  ${f((i * width) / 1000).padStart(5)} s  n ${String(rs.length).padStart(4)}  p50 ${f(rs[Math.floor(rs.length / 2)] ?? 0).padStart(6)}  p99 ${f(rs[Math.floor(rs.length * 0.99)] ?? 0).padStart(6)}  max ${f(rs.at(-1) ?? 0).padStart(6)}  scavenge ${f(sc).padStart(5)} ms  other gc ${f(mc).padStart(5)} ms  stalls ${st.length} (max ${f(Math.max(0, ...st.map((s) => s[1])))})`,
  );
}
console.log(`over time:\n${rows.join('\n')}`);

// the slowest requests, with what overlapped them
console.log('slowest 10:');
for (const r of [...reqs].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
  const g = inRun.filter((x) => overlaps(r, x[0], x[2])).map((x) => `${x[1]} ${x[2].toFixed(1)}`);
  const s = stallsIn.filter((x) => overlaps(r, x[0], x[1])).map((x) => `stall ${x[1].toFixed(1)}`);
  console.log(`  +${f((r[0] - t0) / 1000)} s  ${f(r[1])} ms  ${[...g, ...s].join(', ')}`);
}
