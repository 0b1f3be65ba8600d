/**
 * The benches' `profile` mode (`npm run bench -- placement 3000 64 profile`, `npm run bench -- mts 3000 32 profile`,
 * or `BENCH_PROFILE=1`): the bench runs on a throwaway cluster of its own (bench/pg-cluster.ts), warms up with
 * {@link PROFILE_WARM_UP} decisions, then measures per decision: CPU ms of each process (user and system; the
 * cluster's backends by database), statements, transactions and row writes of each database, and lists the
 * statements and table writes behind them. Counts are exact whatever the machine's load; CPU ms are indicative.
 *
 * With `BENCH_PROF=<dir>`, the processes started under {@link cpuProfiledEnv} are CPU-profiled over the measured
 * phase only (bench/cpu-profile.mjs, started and stopped by a signal), the profiles are left in `<dir>` and their
 * self time by group (bench/cpu-groups.ts) is printed with the rest: the warm-up, the setup and the wait for the
 * counters to settle are not in them.
 *
 * Every profile also prints the CPU ceiling of the path on this machine: `cpu_all_ms`, the CPU per decision of every
 * process measured (the load generator, Bookie, the wallet, every backend and background process of the cluster),
 * and `cpu_ceiling_per_s`, the rate at which that CPU would keep all of the machine's cores busy
 * (`availableParallelism() × 1000 / cpu_all_ms`). No build of the path runs faster than its ceiling; `ceiling_share`
 * is how much of it the measured rate reached. A rate target above the ceiling needs less CPU per decision, not
 * more overlap.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cpuGroups, formatCpuGroups, readCpuProfile } from './cpu-groups.js';
import { startThrowawayCluster, type ThrowawayCluster } from './pg-cluster.js';
import { perDecision, type Snapshot, STATS_SETTLE_MS, snapshot } from './pg-counts.js';
import { splitCpuMeter } from './proc-cpu.js';

/** Decisions made before measuring in profile mode (the JIT's optimizing compiler settles past ~5,000). */
export const PROFILE_WARM_UP = 5000;

/** Whether this run is a profile (`profile` among the args, or `BENCH_PROFILE=1`). */
export function profileMode(args: readonly string[]): boolean {
  return args.includes('profile') || process.env.BENCH_PROFILE === '1';
}

const HOOK = join(dirname(fileURLToPath(import.meta.url)), 'cpu-profile.mjs');

/** Where CPU profiles go (`BENCH_PROF`), made if missing; undefined when none is asked for. */
export function cpuProfileDir(): string | undefined {
  const dir = process.env.BENCH_PROF;
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The environment that starts a Node child process (`name`: its profile's file name) under the CPU profile hook
 * when `BENCH_PROF` is set (empty otherwise): with `measuredOnly`, the profile covers what the profiler's
 * `begin`/`end` bracket (signalled); without, the whole life of the process.
 */
export function cpuProfiledEnv(name: string, measuredOnly: boolean): Record<string, string> {
  const dir = cpuProfileDir();
  if (!dir) return {};
  return {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${HOOK}`.trim(),
    PROF_OUT: dir,
    PROF_NAME: name,
    ...(measuredOnly ? { PROF_ON_SIGNAL: '1' } : {}),
    ...(process.env.BENCH_PROF_INTERVAL_US ? { PROF_INTERVAL_US: process.env.BENCH_PROF_INTERVAL_US } : {}),
  };
}

/** The file the hook writes for process `pid` started as `name`. */
const profileFile = (dir: string, name: string, pid: number) => join(dir, `${name}-${pid}.cpuprofile`);

/** Waits until `file` exists (the hook renames it into place once written). */
async function fileWritten(file: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > end) throw new Error(`no CPU profile at ${file}`);
    await sleep(100);
  }
}

/** Starts the throwaway cluster and points the bench's databases (`DATABASE_URL`) at it. */
export async function startProfileCluster(): Promise<ThrowawayCluster> {
  const cluster = await startThrowawayCluster();
  process.env.DATABASE_URL = cluster.url;
  const stop = () => cluster.stop();
  process.once('exit', stop);
  return cluster;
}

const dbName = (url: string | undefined) => (url ? new URL(url).pathname.slice(1) : '');

/**
 * Measures one phase: call `begin()` after the warm-up (it waits for the counters to settle, then reads them and
 * starts the CPU meter), run the measured decisions, then `end(decisions)`. `profiled` names the processes started
 * under {@link cpuProfiledEnv} with `measuredOnly` (label → the name they were started as): with `BENCH_PROF`, each
 * is CPU-profiled from `begin` to `end`, and its groups are in the detail.
 */
export function profiler(
  cluster: ThrowawayCluster,
  databases: Record<string, string | undefined>,
  pids: Record<string, number | undefined>,
  profiled: Record<string, string> = {},
) {
  const names = Object.fromEntries(Object.entries(databases).map(([k, u]) => [k, dbName(u)]));
  let before: Snapshot | undefined;
  let meter: ReturnType<typeof splitCpuMeter> | undefined;
  const dir = cpuProfileDir();
  const hooked = dir
    ? Object.entries(profiled).flatMap(([label, name]) => {
        const pid = pids[label];
        return pid === undefined ? [] : [{ label, pid, file: profileFile(dir, name, pid) }];
      })
    : [];
  return {
    async begin() {
      await sleep(STATS_SETTLE_MS);
      before = await snapshot(cluster.url, names);
      for (const h of hooked) {
        rmSync(h.file, { force: true });
        process.kill(h.pid, 'SIGUSR2');
      }
      meter = splitCpuMeter(pids, { postmasterPid: cluster.postmasterPid, groups: names });
    },
    /**
     * Per-decision metrics; the CPU is read now, the counts after they settle. With `perSecond` (the measured
     * phase's rate), `ceiling_share` is that rate over `cpu_ceiling_per_s`.
     */
    async end(
      decisions: number,
      perSecond?: number,
    ): Promise<{ metrics: Record<string, number>; detail: string[] }> {
      if (!before || !meter) throw new Error('profiler.end before begin');
      const cpu = meter.perOperation(decisions);
      const syscalls = meter.syscallsPerOperation(decisions);
      for (const h of hooked) process.kill(h.pid, 'SIGUSR2');
      const cpuTotals: Record<string, number> = {};
      for (const [k, v] of Object.entries(cpu)) {
        const who = k.replace(/^cpu_/, '').replace(/_(user|sys)_ms$/, '');
        cpuTotals[`cpu_${who}_ms`] = (cpuTotals[`cpu_${who}_ms`] ?? 0) + v;
      }
      const ceiling = cpuCeiling(cpuTotals, perSecond);
      await sleep(STATS_SETTLE_MS);
      const after = await snapshot(cluster.url, names);
      const counts = perDecision(before, after, decisions);
      const groups: string[] = [];
      for (const h of hooked) {
        await fileWritten(h.file);
        const rows = Number(process.env.BENCH_PROF_ROWS ?? 30);
        const cpuMsPerDecision = cpuTotals[`cpu_${h.label}_ms`];
        groups.push(
          ...formatCpuGroups(cpuGroups(readCpuProfile(h.file)), {
            label: h.label,
            rows,
            decisions,
            ...(cpuMsPerDecision !== undefined ? { cpuMsPerDecision } : {}),
          }),
        );
        groups.push(`  ${h.label} cpu profile: ${h.file}`);
      }
      return {
        metrics: { ...cpuTotals, ...ceiling, ...cpu, ...syscalls, ...counts.metrics },
        detail: [...counts.detail, ...groups],
      };
    },
  };
}

/**
 * The CPU ceiling of a path from its processes' CPU ms per decision (`cpu_<who>_ms`): their sum, the rate at which it
 * keeps every core of this machine busy, and (given the measured rate) the share of that ceiling reached.
 */
export function cpuCeiling(
  cpuMsByProcess: Record<string, number>,
  perSecond?: number,
  cores: number = availableParallelism(),
): Record<string, number> {
  let all = 0;
  for (const v of Object.values(cpuMsByProcess)) all += v;
  if (!(all > 0)) return {};
  const ceiling = (cores * 1000) / all;
  return {
    cpu_all_ms: all,
    cpu_ceiling_per_s: ceiling,
    ...(perSecond !== undefined ? { ceiling_share: perSecond / ceiling } : {}),
  };
}
