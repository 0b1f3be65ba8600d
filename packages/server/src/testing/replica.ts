import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway Postgres primary and its streaming replica, each on its own port in one temporary directory. */
export interface StreamingPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops both servers and removes the directory. */
  close(): Promise<void>;
}

/** The newest installed Postgres server's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = readdirSync(root)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  if (majors.length === 0) throw new Error(`no Postgres server under ${root}`);
  return join(root, majors[0]!, 'bin');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * Starts a primary (initdb, replication allowed from 127.0.0.1) and a hot-standby replica made from it with
 * `pg_basebackup -R`, for tests of feed nodes. As root, the servers run as the `postgres` user. Postgres refuses
 * replication from the shared local server unless its pg_hba.conf allows it, hence a primary of the test's own.
 */
export async function startStreamingPair(): Promise<StreamingPair> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'bookie-replica-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
    const r = spawnSync(file, argv, { encoding: 'utf8', cwd: dir, timeout: 120_000 });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  const started: string[] = [];
  const close = async () => {
    for (const data of started.reverse()) {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [p1, p2] = [await freePort(), await freePort()];
    run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    appendFileSync(
      join(primary, 'postgresql.conf'),
      [
        `port = ${p1}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 4',
        'fsync = off',
        'synchronous_commit = off',
        'shared_buffers = 32MB',
        'max_connections = 60',
        '',
      ].join('\n'),
    );
    run('pg_ctl', ['-D', primary, '-l', join(dir, 'primary.log'), '-w', 'start']);
    started.push(primary);
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(p1),
      '-U',
      'postgres',
      '-D',
      replica,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    appendFileSync(join(replica, 'postgresql.conf'), `port = ${p2}\nhot_standby = on\n`);
    run('pg_ctl', ['-D', replica, '-l', join(dir, 'replica.log'), '-w', 'start']);
    started.push(replica);
    return {
      primaryUrl: `postgres://postgres@127.0.0.1:${p1}/postgres`,
      replicaUrl: `postgres://postgres@127.0.0.1:${p2}/postgres`,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
