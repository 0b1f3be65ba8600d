/**
 * The benches' `profile` mode (`npm run bench -- placement 3000 64 profile`, `npm run bench -- mts 3000 32 profile`,
 * or `BENCH_PROFILE=1`): the bench runs on a throwaway cluster of its own (bench/pg-cluster.ts), warms up with
 * {@link PROFILE_WARM_UP} decisions, then measures per decision: CPU ms of each process (user and system; the
 * cluster's backends by database), statements, transactions and row writes of each database, and lists the
 * statements and table writes behind them. Counts are exact whatever the machine's load; CPU ms are indicative.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startThrowawayCluster, type ThrowawayCluster } from './pg-cluster.js';
import { perDecision, type Snapshot, STATS_SETTLE_MS, snapshot } from './pg-counts.js';
import { splitCpuMeter } from './proc-cpu.js';

/** Decisions made before measuring in profile mode (the JIT's optimizing compiler settles past ~5,000). */
export const PROFILE_WARM_UP = 5000;

/** Whether this run is a profile (`profile` among the args, or `BENCH_PROFILE=1`). */
export function profileMode(args: readonly string[]): boolean {
  return args.includes('profile') || process.env.BENCH_PROFILE === '1';
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
 * starts the CPU meter), run the measured decisions, then `end(decisions)`.
 */
export function profiler(
  cluster: ThrowawayCluster,
  databases: Record<string, string | undefined>,
  pids: Record<string, number | undefined>,
) {
  const names = Object.fromEntries(Object.entries(databases).map(([k, u]) => [k, dbName(u)]));
  let before: Snapshot | undefined;
  let meter: ReturnType<typeof splitCpuMeter> | undefined;
  return {
    async begin() {
      await sleep(STATS_SETTLE_MS);
      before = await snapshot(cluster.url, names);
      meter = splitCpuMeter(pids, { postmasterPid: cluster.postmasterPid, groups: names });
    },
    /** Per-decision metrics; the CPU is read now, the counts after they settle. */
    async end(decisions: number): Promise<{ metrics: Record<string, number>; detail: string[] }> {
      if (!before || !meter) throw new Error('profiler.end before begin');
      const cpu = meter.perOperation(decisions);
      const cpuTotals: Record<string, number> = {};
      for (const [k, v] of Object.entries(cpu)) {
        const who = k.replace(/^cpu_/, '').replace(/_(user|sys)_ms$/, '');
        cpuTotals[`cpu_${who}_ms`] = (cpuTotals[`cpu_${who}_ms`] ?? 0) + v;
      }
      await sleep(STATS_SETTLE_MS);
      const after = await snapshot(cluster.url, names);
      const counts = perDecision(before, after, decisions);
      return { metrics: { ...cpuTotals, ...cpu, ...counts.metrics }, detail: counts.detail };
    },
  };
}
