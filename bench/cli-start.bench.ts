/**
 * How long the `bookie` command takes to be useful, next to a bare `node -e 0` in the same run (the ratio is what to
 * compare across machines and builds; the target is ≤ 3): `bookie --help` and `bookie wl --help` to exit (only the
 * chosen command's module is loaded), and `bookie start` (in memory, port 0) to its first
 * `/healthz` answer — the bin (the compiled build) and, in the same run, the TypeScript sources under tsx as the bin
 * ran them before the build. `npm run bench -- cli-start [runs]` (default 3 each; the median is reported).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = `${ROOT}node_modules/.bin/bookie`;
/** `bookie` from its sources under tsx (node's arguments). */
const SOURCES = ['--conditions=bookie-source', '--import', 'tsx', `${ROOT}packages/server/src/main.ts`];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs `cmd args` to exit; resolves to the wall time in ms. */
function timed(cmd: string, args: string[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - start));
  });
}

/** Starts `bookie start` and resolves to the ms until `/healthz` answers 200; stops it. */
function toHealthz(command: string[]): Promise<number> {
  const start = performance.now();
  const [cmd = BIN, ...pre] = command;
  const child = spawn(cmd, [...pre, 'start', '--port', '0', '--data-dir', 'memory'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let measured: number | undefined;
    child.stdout.on('data', async (d) => {
      out += d;
      const url = /bookie listening on (http:\/\/[^"\s]+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout.removeAllListeners('data');
      for (;;) {
        const ok = await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
      }
      measured = performance.now() - start;
      child.kill('SIGTERM');
    });
    child.on('exit', (code) =>
      measured === undefined ? reject(new Error(`bookie start exited ${code}: ${out}`)) : resolve(measured),
    );
  });
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const runs = Number(args[0] ?? 3);
  const node: number[] = [];
  const help: number[] = [];
  const wlHelp: number[] = [];
  const start: number[] = [];
  const helpSources: number[] = [];
  const startSources: number[] = [];
  for (let i = 0; i < runs; i++) {
    node.push(await timed(process.execPath, ['-e', '0']));
    help.push(await timed(BIN, ['--help']));
    wlHelp.push(await timed(BIN, ['wl', '--help']));
    start.push(await toHealthz([BIN]));
    helpSources.push(await timed(process.execPath, [...SOURCES, '--help']));
    startSources.push(await toHealthz([process.execPath, ...SOURCES]));
  }
  const base = median(node);
  return [
    {
      name: 'help-sources',
      metrics: { node_ms: base, bookie_help_ms: median(helpSources), ratio: median(helpSources) / base },
      note: '`bookie --help` from the sources under tsx vs `node -e 0`, medians',
    },
    {
      name: 'start-sources',
      metrics: {
        node_ms: base,
        start_to_healthz_ms: median(startSources),
        ratio: median(startSources) / base,
      },
      note: '`bookie start` from the sources under tsx to the first 200 of /healthz vs `node -e 0`, medians',
    },
    {
      name: 'help',
      metrics: { node_ms: base, bookie_help_ms: median(help), ratio: median(help) / base },
      note: '`bookie --help` to exit vs `node -e 0`, medians',
    },
    {
      name: 'wl-help',
      metrics: { node_ms: base, bookie_help_ms: median(wlHelp), ratio: median(wlHelp) / base },
      note: '`bookie wl --help` to exit vs `node -e 0`, medians',
    },
    {
      name: 'start',
      metrics: { node_ms: base, start_to_healthz_ms: median(start), ratio: median(start) / base },
      note: '`bookie start` (in memory) to the first 200 of /healthz vs `node -e 0`, medians',
    },
  ];
}
