/**
 * The lock of an embedded (PGlite) data directory. PGlite is one Postgres in one process: a second process opening
 * the same directory corrupts it or aborts inside WebAssembly. So a process that opens a data directory first takes
 * `bookie.lock` in it (holding its PID; written whole under another name, then hard-linked into place, which fails
 * when the lock exists); another live process is refused with
 * {@link DataDirLockedError}; a lock whose holder is gone (a kill -9, a crash) is stale and taken over.
 *
 * @packageDocumentation
 */
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File name of the lock inside the data directory. */
export const LOCK_FILE = 'bookie.lock';

/** Another live process holds the data directory. `pid` is the holder; the message is one line. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid} (only one process can open it); ` +
        'stop that process first, or act through its HTTP API instead (--url)',
    );
  }
}

/** A held lock; `release` removes it (idempotent). */
export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim().split(/\s/)[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock of `dataDir` (which must exist) for this process.
 *
 * @throws DataDirLockedError when a live process (this one included, through another open) holds it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  const mine = join(dataDir, `${LOCK_FILE}.${process.pid}`);
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, file);
        return held(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const pid = holderOf(file);
      if (pid !== undefined && alive(pid)) throw new DataDirLockedError(dataDir, pid);
      // stale: its holder is gone (a kill -9, a crash); take it over
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(mine, { force: true });
  }
  throw new DataDirLockedError(dataDir, holderOf(file) ?? 0);
}

function held(file: string): DataDirLock {
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      if (holderOf(file) === process.pid) rmSync(file, { force: true });
    },
  };
}
