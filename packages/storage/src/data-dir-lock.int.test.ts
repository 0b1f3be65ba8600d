import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';
import { openDatabase } from './database.js';

/** Always PGlite: the lock is about the embedded database's data directory. */
const WRITER = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bookie-lock-'));
  dirs.push(d);
  return d;
}

/** Starts the writer fixture; resolves once its output satisfies `until` (checked on every chunk). */
function writer(dir: string, mode: 'hold' | 'write', until: (out: string) => boolean) {
  const child = spawn(
    process.execPath,
    ['--conditions=bookie-source', '--import', 'tsx', WRITER, dir, mode],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const ready = new Promise<void>((resolve, reject) => {
    const check = (d: Buffer) => {
      out += d.toString();
      if (until(out)) resolve();
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.on('exit', (code) =>
      until(out) ? resolve() : reject(new Error(`writer exited ${code}:\n${out}`)),
    );
  });
  return { child, ready, exited, output: () => out };
}

async function kill9(w: { child: ChildProcess; exited: Promise<void> }) {
  w.child.kill('SIGKILL');
  await w.exited;
}

// each test starts PGlite processes on a fresh directory on disk (an initdb each): slow on a busy machine
const SLOW = 180_000;

describe('the PGlite data directory lock', () => {
  it(
    'refuses a second process with one line naming the holder, and opens after the holder is killed',
    async () => {
      const dir = dataDir();
      const holder = writer(dir, 'hold', (o) => o.includes('open '));
      await holder.ready;
      const err = await openDatabase({ dataDir: dir }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as DataDirLockedError).pid).toBe(holder.child.pid);
      expect((err as Error).message).toContain(`in use by process ${holder.child.pid}`);
      expect((err as Error).message).not.toContain('\n');

      await kill9(holder);
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true); // left behind by the kill
      const db = await openDatabase({ dataDir: dir });
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM t`.execute(db.db);
      expect(rows).toEqual([{ n: 0 }]);
      await db.close();
      expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    },
    SLOW,
  );

  it(
    'refuses a second open in the same process until the first is closed',
    async () => {
      const dir = dataDir();
      const first = await openDatabase({ dataDir: dir });
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
      await first.close();
      const again = await openDatabase({ dataDir: dir });
      await again.close();
    },
    SLOW,
  );

  it('takes over a lock naming no live process', () => {
    const dir = dataDir();
    const a = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/in use by process/);
    a.release();
    const b = lockDataDir(dir);
    b.release();
  });

  it(
    'a data directory left by a kill -9 in the middle of writes opens cleanly with every commit kept',
    async () => {
      const dir = dataDir();
      const committed = (out: string) =>
        Math.max(0, ...[...out.matchAll(/committed (\d+)/g)].map((m) => Number(m[1])));
      for (let round = 0; round < 2; round++) {
        const w = writer(dir, 'write', (o) => committed(o) >= 40 * (round + 1));
        await w.ready;
        await kill9(w);
        const last = committed(w.output());
        const db = await openDatabase({ dataDir: dir });
        const { rows } = await sql<{
          n: number;
          max: number;
        }>`SELECT count(*)::int AS n, coalesce(max(n), 0)::int AS max FROM t`.execute(db.db);
        // every reported commit is there; at most the one in flight besides
        expect(rows[0]!.max).toBeGreaterThanOrEqual(last);
        expect(rows[0]!.n).toBe(rows[0]!.max);
        await db.close();
      }
    },
    SLOW,
  );
});
