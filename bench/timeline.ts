/**
 * Where a bench's latency tail comes from: with `BENCH_TIMELINE=<dir>`, the Bookie process a bench starts is
 * preloaded with bench/timeline.mjs (its garbage collections and event-loop stalls, timestamped) and each closed loop
 * dumps its requests' latencies there (bench/load.ts, `BENCH_LAT_DUMP`); `node --import tsx bench/tail.ts <dir>`
 * sets the two side by side. `BENCH_BOOKIE_NODE_ARGS` (space-separated) adds node options to the Bookie process,
 * e.g. `--max-semi-space-size=32` or `--trace-gc`, to try a V8 setting on the real `bookie start`.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOK = join(dirname(fileURLToPath(import.meta.url)), 'timeline.mjs');

/** Node options and environment of a bench's child process `name` (e.g. `bookie`) for the timeline and extra flags. */
export function benchChildOptions(name: string): { nodeArgs: string[]; env: Record<string, string> } {
  const extra = (process.env.BENCH_BOOKIE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const dir = process.env.BENCH_TIMELINE;
  if (!dir) return { nodeArgs: extra, env: {} };
  mkdirSync(dir, { recursive: true });
  process.env.BENCH_LAT_DUMP ??= dir;
  return { nodeArgs: [...extra, '--import', HOOK], env: { TIMELINE_OUT: dir, TIMELINE_NAME: name } };
}
