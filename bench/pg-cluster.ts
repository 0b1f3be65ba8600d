/**
 * A throwaway Postgres cluster for the benches' exact counts: `initdb` into a temporary directory, `pg_ctl` on a free
 * loopback port, `pg_stat_statements` preloaded (only here, never on a shared server), durable commits as in
 * production. `stop()` stops it and removes its directory. Run as root, the cluster belongs to the `postgres` user
 * (initdb refuses root).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1 (the OS picks it; the socket is closed before the cluster binds it). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface ThrowawayCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** The postmaster's pid: every backend and background process of the cluster is its child. */
  postmasterPid: number;
  stop(): void;
}

/** Starts a fresh cluster; throws when `initdb` / `pg_ctl` are not on PATH. */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'bookie-bench-pg-'));
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    execFileSync(cmd, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(asRoot ? { uid, gid, env: { ...process.env, HOME: dir } } : {}),
    });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-instructions', '-E', 'UTF8']);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c shared_preload_libraries=pg_stat_statements',
    '-c pg_stat_statements.max=5000',
    `-c pg_stat_statements.track=${process.env.BENCH_PGSS_TRACK ?? 'top'}`,
    '-c max_connections=200',
    '-c shared_buffers=256MB',
    '-c fsync=on',
    '-c synchronous_commit=on',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  execFileSync('psql', [url, '-qc', 'CREATE EXTENSION pg_stat_statements'], { stdio: 'ignore' });
  let stopped = false;
  return {
    url,
    postmasterPid,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
