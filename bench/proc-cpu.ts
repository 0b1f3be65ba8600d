/**
 * CPU time of processes from Linux's /proc, for benches that need to say where the CPU went (machines are noisy;
 * CPU per operation is steadier than wall time). Elsewhere every reading is undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of `pid`, ms; undefined when it cannot be read. */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * The summed CPU of every Postgres backend now running on this machine, ms (those that exit take theirs along); with
 * `databases`, only the backends connected to one of them (other work on the machine then does not count).
 */
export function postgresBackendsCpuMs(databases?: readonly string[]): number | undefined {
  let total = 0;
  let any = false;
  let dirs: string[];
  try {
    dirs = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const d of dirs) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const title = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ')) continue;
      // a backend's title: "postgres: [<cluster>: ]<user> <database> <host>(<port>) <state>"
      if (databases && !title.split(/[\s\0]+/).some((w) => databases.includes(w))) continue;
      const ms = cpuMsOf(Number(d));
      if (ms !== undefined) {
        total += ms;
        any = true;
      }
    } catch {}
  }
  return any ? total : undefined;
}

/**
 * CPU ms of each named process (and of the Postgres backends, as `postgres`; those of `databases` alone, as
 * `postgres_own`) between two readings.
 */
export function cpuMeter(pids: Record<string, number | undefined>, databases?: readonly string[]) {
  const read = () => ({
    ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMsOf(pid)])),
    postgres: postgresBackendsCpuMs(),
    ...(databases ? { postgres_own: postgresBackendsCpuMs(databases) } : {}),
  });
  const start = read();
  return {
    /** CPU ms since the meter started, by name, divided by `per` (e.g. the operations done). */
    perOperation(per: number): Record<string, number> {
      const end = read();
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(end)) {
        const s = start[k as keyof typeof start];
        if (v !== undefined && s !== undefined) out[k] = (v - s) / per;
      }
      return out;
    },
  };
}
