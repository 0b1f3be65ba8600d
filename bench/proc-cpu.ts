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

/** utime and stime of `pid`, ms, apart; undefined when it cannot be read. */
export function cpuSplitOf(pid: number | undefined): { user: number; sys: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]) * TICK_MS, sys: Number(f[12]) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** The read and write system calls `pid` has made (`syscr`, `syscw` of /proc/<pid>/io); undefined when unreadable. */
export function syscallsOf(pid: number | undefined): { reads: number; writes: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const reads = /^syscr: (\d+)$/m.exec(io)?.[1];
    const writes = /^syscw: (\d+)$/m.exec(io)?.[1];
    return reads === undefined || writes === undefined
      ? undefined
      : { reads: Number(reads), writes: Number(writes) };
  } catch {
    return undefined;
  }
}

/**
 * The CPU of a throwaway cluster's processes (the postmaster's children), user and system apart, grouped by the
 * database a backend serves (`groups`: label → database name); background processes (WAL writer, checkpointer,
 * autovacuum…) and backends of other databases count as `other`.
 */
function clusterCpu(postmasterPid: number, groups: Record<string, string>) {
  const out: Record<string, Reading> = {};
  const add = (k: string, c: Reading) => {
    const o = out[k] ?? { user: 0, sys: 0, reads: 0, writes: 0 };
    o.user += c.user;
    o.sys += c.sys;
    o.reads += c.reads;
    o.writes += c.writes;
    out[k] = o;
  };
  let dirs: string[] = [];
  try {
    dirs = readdirSync('/proc');
  } catch {}
  for (const d of dirs) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== postmasterPid && Number(d) !== postmasterPid) continue;
      const words = readFileSync(`/proc/${d}/cmdline`, 'utf8').split(/[\s\0]+/);
      const c = readingOf(Number(d));
      if (!c) continue;
      const label = Object.entries(groups).find(([, db]) => words.includes(db))?.[0];
      add(`pg_${label ?? 'other'}`, c);
    } catch {}
  }
  return out;
}

/** A process's CPU ms (user, system) and its read and write system calls (0 where /proc/<pid>/io is unreadable). */
interface Reading {
  user: number;
  sys: number;
  reads: number;
  writes: number;
}

function readingOf(pid: number | undefined): Reading | undefined {
  const c = cpuSplitOf(pid);
  if (!c) return undefined;
  const io = syscallsOf(pid);
  return { ...c, reads: io?.reads ?? 0, writes: io?.writes ?? 0 };
}

/**
 * CPU ms (user and system apart) and read/write system calls of named processes and of a throwaway cluster's
 * processes between two readings. Backends that exit between the readings take their CPU along (the benches' pools
 * stay open).
 */
export function splitCpuMeter(
  pids: Record<string, number | undefined>,
  cluster?: { postmasterPid: number; groups: Record<string, string> },
) {
  const read = () => {
    const r: Record<string, Reading> = {};
    for (const [k, pid] of Object.entries(pids)) {
      const c = readingOf(pid);
      if (c) r[k] = c;
    }
    if (cluster) Object.assign(r, clusterCpu(cluster.postmasterPid, cluster.groups));
    return r;
  };
  const start = read();
  return {
    /** `cpu_<name>_user_ms` / `cpu_<name>_sys_ms` per operation since the meter started. */
    perOperation(per: number): Record<string, number> {
      const end = read();
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(end)) {
        const s = start[k] ?? { user: 0, sys: 0 };
        out[`cpu_${k}_user_ms`] = (v.user - s.user) / per;
        out[`cpu_${k}_sys_ms`] = (v.sys - s.sys) / per;
      }
      return out;
    },
    /**
     * `syscalls_<name>` per operation since the meter started: read and write system calls together (socket reads
     * and writes, mostly: each round trip to Postgres costs the client at least one of each).
     */
    syscallsPerOperation(per: number): Record<string, number> {
      const end = read();
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(end)) {
        const s = start[k] ?? { user: 0, sys: 0, reads: 0, writes: 0 };
        out[`syscalls_${k}`] = (v.reads - s.reads + v.writes - s.writes) / per;
      }
      return out;
    },
  };
}
