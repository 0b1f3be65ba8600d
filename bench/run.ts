/**
 * Benchmark runner: `npm run bench -- <name> [args…]` runs bench/<name>.bench.ts, whose default export
 * returns one or more results. Each is printed as one JSON line and as a one-line summary.
 * `npm run bench -- --list` lists the benchmarks.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (!name || name === '--list' || name === '--help') {
  process.stdout.write(`usage: npm run bench -- <name> [args]\nbenchmarks: ${available.join(', ')}\n`);
  process.exit(name ? 0 : 2);
}
if (!available.includes(name)) {
  process.stderr.write(`error: unknown benchmark "${name}"; available: ${available.join(', ')}\n`);
  process.exit(2);
}
const mod = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as {
  default: (args: string[]) => Promise<BenchResult | BenchResult[]>;
};
const results = [await mod.default(args)].flat();
for (const r of results) {
  process.stdout.write(`${JSON.stringify({ bench: name, ...r })}\n`);
}
for (const r of results) {
  const metrics = Object.entries(r.metrics)
    .map(([k, v]) => `${k}=${typeof v === 'number' ? +v.toFixed(3) : v}`)
    .join(' ');
  process.stdout.write(`${name}/${r.name}: ${metrics}${r.note ? `  (${r.note})` : ''}\n`);
}
process.exit(0);
